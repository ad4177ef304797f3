// The JSON API of this server: every answer the page shows comes from here.
import {el} from "./dom.js";

/** A 4xx/5xx answer (or no answer), carrying the API's {file, place, problem}. */
export class ApiError extends Error {
  constructor(error) {
    super([error.file, error.place, error.problem].filter(Boolean).join(": "));
    this.error = error;
  }
}

/** Call the JSON API: its answer, or an ApiError. */
export async function api(path, {body, text} = {}) {
  const options = {};
  if (body !== undefined || text !== undefined) {
    options.method = "POST";
    options.headers = {"Content-Type": text === undefined ? "application/json" : "text/plain"};
    options.body = text === undefined ? JSON.stringify(body) : text;
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError({problem: "the server cannot be reached: is `cfalloc serve` running?"});
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(answer?.error ?? {problem});
  }
  return answer;
}

/** Where and what: the place (when known) and the problem of an error. */
export function errorDetails(error) {
  const details = error.error ?? {problem: String(error.message ?? error)};
  return [
    details.place
      ? el("p", {}, el("strong", {text: "Where: "}),
        el("code", {"data-testid": "error-place", text: details.place}))
      : null,
    el("p", {"data-testid": "error-problem"}, el("strong", {text: "Problem: "}), details.problem),
  ];
}

export function errorNode(error, testid) {
  return el("div", {class: "error-box", role: "alert", "data-testid": testid}, errorDetails(error));
}

let terms = null;

/** The words of the game (stand types, rules, steps), fetched once. */
export function gameTerms() {
  terms ??= api("/api/terms").catch((error) => {
    terms = null;  // asked again next time
    throw error;
  });
  return terms;
}
