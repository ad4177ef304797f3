"""The one reader of YAML and JSON documents, for every game, file and request.

Every document is read with a safe loader and within :class:`~allocator.core.limits.Limits`,
checked before it is built: its size in bytes, the depth of its nesting, the number of values
once YAML aliases are expanded (an alias bomb is refused before it grows), the digits of its
numbers and the length of its texts. Duplicate keys are refused, not silently merged; only plain
data comes out (text, finite numbers, true/false, null, lists and mappings): YAML tags such as
``!!binary`` or ``!!python/object`` and dates are refused or read as text. Every problem is one
:class:`~allocator.core.errors.InputError` with the file and the line, quoting at most a short,
escaped excerpt of the input.

>>> read_text("a: 1\\nb: [x, y]\\n")
{'a': 1, 'b': ['x', 'y']}
>>> read_text("a: 1\\na: 2\\n", source="farm.yaml")
Traceback (most recent call last):
...
allocator.core.errors.InputError: farm.yaml: line 2, column 1: duplicate key 'a' (first at line 1)
"""

from __future__ import annotations

import json
import math
import re
import stat
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml

from allocator.core.errors import InputError
from allocator.core.limits import Limits, default_limits

Syntax = Literal["yaml", "json", "auto"]

_LOADER_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR, _INT, _FLOAT, _BOOL, _NULL = (
    f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null")
)
_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"
PLAIN_TAGS = {_STR, _INT, _FLOAT, _BOOL, _NULL, _MAP, _SEQ, "!"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def excerpt(value: object, width: int = 40) -> str:
    """A short, escaped quotation of ``value`` for an error message."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 4] + "...'"


class _Loader(_LOADER_BASE):  # type: ignore[misc]
    """The safe loader with duplicate keys refused and dates left as text."""

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, Any]]]] = {
        first: [(tag, regexp) for tag, regexp in resolvers if not tag.endswith(":timestamp")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be text or a number", key_node.start_mark
                ) from None
            if first is not None:
                raise _DuplicateKey(key, first.start_mark.line + 1, key_node.start_mark)
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

    def construct_number(self, node: yaml.ScalarNode) -> Any:
        """An int or float, or a YAML error at its place when the text is not one."""
        kind = "a whole number" if node.tag == _INT else "a number"
        construct = super().construct_yaml_int if node.tag == _INT else super().construct_yaml_float
        try:
            return construct(node)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, f"{excerpt(node.value)} is not {kind}", node.start_mark
            ) from None


_Loader.add_constructor(_INT, _Loader.construct_number)
_Loader.add_constructor(_FLOAT, _Loader.construct_number)


class _DuplicateKey(yaml.YAMLError):
    def __init__(self, key: object, first_line: int, mark: Any):
        super().__init__()
        self.problem = f"duplicate key {excerpt(key)} (first at line {first_line})"
        self.problem_mark = mark


def _tag_problem(tag: str) -> str:
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    return (
        f"the YAML tag {excerpt(shown)} is not allowed: files hold only text, numbers, "
        "true/false, lists and mappings"
    )


class _Resolver(yaml.resolver.Resolver):
    """The loader's resolver alone: which tag each scalar gets."""

    yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


_RESOLVER = _Resolver()


def _scalar_tag(event: yaml.ScalarEvent) -> str:
    """The tag the loader gives a scalar: its own, or the one its text resolves to."""
    if event.tag not in (None, "!") and not event.implicit[0]:
        return str(event.tag)
    return str(_RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit))  # type: ignore[no-untyped-call]


def _mark_place(mark: Any) -> str | None:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else None


def _check_yaml_events(text: str, source: str | None, limits: Limits) -> None:
    """Walk the parser's events (no document is built yet) and refuse what breaks a limit."""
    sizes: dict[str, int] = {}
    stack: list[tuple[int, str | None]] = []  # (values so far, anchor) of each open collection
    total = 0

    def fail(problem: str, mark: Any, limit: str | None = None) -> InputError:
        place = _mark_place(mark)
        if limit is not None:
            return limits.refuse(limit, problem, file=source, place=place)
        return InputError(problem, file=source, place=place)

    def add(count: int, new: int | None = None) -> None:
        """``count`` values more in the open collection, ``new`` of them (all by default)
        not counted in the document's total yet."""
        nonlocal total
        total += count if new is None else new
        if stack:
            stack[-1] = (stack[-1][0] + count, stack[-1][1])

    for event in yaml.parse(text, Loader=_LOADER_BASE):
        if isinstance(event, yaml.ScalarEvent):
            tag = event.tag
            if tag is not None and not event.implicit[0] and tag not in PLAIN_TAGS:
                raise fail(_tag_problem(tag), event.start_mark)
            value = event.value
            if len(value) > limits.max_text_length:
                raise fail(
                    f"a text of {len(value)} characters", event.start_mark, "max_text_length"
                )
            if _SURROGATE.search(value):
                raise fail("the text holds an unpaired surrogate escape", event.start_mark)
            if _scalar_tag(event) in (_INT, _FLOAT):
                # in any base and with any tag: hex letters and sexagesimal parts count too
                digits = sum(ch.isalnum() for ch in value)
                if digits > limits.max_number_digits:
                    raise fail(
                        f"a number of {digits} digits", event.start_mark, "max_number_digits"
                    )
                if value.lower().lstrip("+-") in (".inf", ".nan"):
                    raise fail(f"{excerpt(value)} is not a finite number", event.start_mark)
            add(1)
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for _, anchor in stack):
                raise fail(
                    "a YAML alias refers to the list or mapping that contains it", event.start_mark
                )
            add(sizes.get(event.anchor or "", 1))
        elif isinstance(event, yaml.CollectionStartEvent):
            tag = event.tag
            if tag is not None and not event.implicit and tag not in PLAIN_TAGS:
                raise fail(_tag_problem(tag), event.start_mark)
            stack.append((1, event.anchor))
            if len(stack) > limits.max_depth:
                raise fail(
                    f"the document is nested {len(stack)} levels deep",
                    event.start_mark,
                    "max_depth",
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            count, anchor = stack.pop()
            if anchor is not None:
                sizes[anchor] = count
            add(count, new=1)  # its values are counted already: only the collection itself
        if total > limits.max_values:
            raise fail(
                "the document holds too many values once its YAML aliases are expanded",
                event.start_mark,
                "max_values",
            )


def _load_yaml(text: str, source: str | None, limits: Limits) -> Any:
    try:
        _check_yaml_events(text, source, limits)
        loader = _Loader(text)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "the text cannot be read"
        if isinstance(exc, yaml.reader.ReaderError):
            problem = f"character #x{exc.character:04x} is not allowed ({exc.reason})"
            line = text.count("\n", 0, exc.position) + 1
            raise InputError(
                f"not valid YAML: {problem}", file=source, place=f"line {line}"
            ) from None
        if isinstance(exc, _DuplicateKey):
            raise InputError(problem, file=source, place=_mark_place(mark)) from None
        raise InputError(
            f"not valid YAML: {problem}", file=source, place=_mark_place(mark)
        ) from None
    for item, place in _places(data):
        if isinstance(item, float) and not math.isfinite(item):
            raise InputError(
                "the number is too large to be finite", file=source, place=place or None
            )
    return data


def _places(value: Any, place: str = "") -> Iterator[tuple[Any, str]]:
    """Every value of a document with its place (``a.b[0].c``), depth first."""
    stack = [(value, place)]
    while stack:
        item, where = stack.pop()
        yield item, where
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))


def walk(value: Any, depth: int = 1) -> Iterator[tuple[Any, int]]:
    """Every value of a document (keys included) with its depth, depth first, the last child
    first; lazily, so that a caller who has seen enough may stop.

    >>> [item for item, _ in walk({"a": [1, 2]})]
    [{'a': [1, 2]}, 'a', [1, 2], 2, 1]
    """
    yield value, depth
    open_collections = [(_children(value), depth + 1)]
    while open_collections:
        children, level = open_collections[-1]
        item = next(children, _END)
        if item is _END:
            open_collections.pop()
            continue
        yield item, level
        open_collections.append((_children(item), level + 1))


def _children(item: Any) -> Iterator[Any]:
    if isinstance(item, dict):
        return chain(reversed(item), reversed(item.values()))
    if isinstance(item, list):
        return reversed(item)
    return iter(())


_END = object()


def _load_json(text: str, source: str | None, limits: Limits) -> Any:
    def number(kind: type[int] | type[float]) -> Any:
        def parse(literal: str) -> int | float:
            digits = sum(ch.isdigit() for ch in literal)
            if digits > limits.max_number_digits:
                raise _JsonProblem(
                    limits.refuse("max_number_digits", f"a number of {digits} digits", file=source)
                )
            value = kind(literal)
            if isinstance(value, float) and not math.isfinite(value):
                raise _JsonProblem(
                    InputError(f"{literal[:20]} is not a finite number", file=source)
                )
            return value

        return parse

    def no_constant(literal: str) -> Any:
        raise _JsonProblem(InputError(f"{literal} is not a number JSON allows", file=source))

    def mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise _JsonProblem(
                    InputError(
                        f"duplicate key {excerpt(key)}",
                        file=source,
                        place=_json_key_line(text, key),
                    )
                )
            result[key] = value
        return result

    try:
        data = json.loads(
            text,
            object_pairs_hook=mapping,
            parse_int=number(int),
            parse_float=number(float),
            parse_constant=no_constant,
        )
    except _JsonProblem as problem:
        raise problem.error from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg}",
            file=source,
            place=f"line {exc.lineno}, column {exc.colno}",
        ) from None
    except RecursionError:
        raise limits.refuse("max_depth", "the document is nested too deeply", file=source) from None
    count = 0
    for item, level in walk(data):
        count += 1
        if level > limits.max_depth:
            raise limits.refuse(
                "max_depth", f"the document is nested {level} levels deep", file=source
            )
        if isinstance(item, str):
            if len(item) > limits.max_text_length:
                raise limits.refuse(
                    "max_text_length", f"a text of {len(item)} characters", file=source
                )
            if _SURROGATE.search(item):
                raise InputError("the text holds an unpaired surrogate escape", file=source)
    if count > limits.max_values:
        raise limits.refuse("max_values", f"the document holds {count} values", file=source)
    return data


class _JsonProblem(Exception):
    def __init__(self, error: InputError):
        super().__init__(str(error))
        self.error = error


def _json_key_line(text: str, key: str) -> str | None:
    """The line of the second occurrence of ``"key":`` (JSON's hooks do not know positions)."""
    pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
    found = [m.start() for m in pattern.finditer(text)]
    return f"line {text.count(chr(10), 0, found[1]) + 1}" if len(found) > 1 else None


def read_text(
    text: str, *, source: str | None = None, syntax: Syntax = "auto", limits: Limits | None = None
) -> Any:
    """Parse a YAML or JSON document, within the limits, by a safe loader.

    Parameters
    ----------
    text : str
        The document.
    source : str, optional
        The file (or request) it came from, named by every error.
    syntax : {"auto", "yaml", "json"}
        ``auto``: JSON when the text reads as JSON, else YAML.
    limits : Limits, optional
        The size, depth and node limits (the defaults when not given).

    Returns
    -------
    Any
        Plain data: dicts, lists, strings, numbers, booleans and ``None``.

    Raises
    ------
    InputError
        A syntax error, a YAML tag other than plain data's or a duplicate key, naming the line
        and column.
    LimitError
        A document over one of the limits (its size, its depth, its values once YAML aliases
        are expanded, the digits of a number), refused before it grows.

    Examples
    --------
    >>> read_text("a: [1, 2]")
    {'a': [1, 2]}
    """
    limits = limits or default_limits()
    if len(text) > limits.max_file_bytes:
        raise limits.refuse("max_file_bytes", f"the text has {len(text)} characters", file=source)
    text = text.removeprefix("\ufeff")
    if syntax == "json":
        return _load_json(text, source, limits)
    if syntax == "auto" and text.lstrip()[:1] in ("{", "["):
        try:
            return _load_json(text, source, limits)
        except InputError as error:
            if not error.problem.startswith("not valid JSON"):
                raise
    return _load_yaml(text, source, limits)


def read_bytes(
    data: bytes, *, source: str | None = None, syntax: Syntax = "auto", limits: Limits | None = None
) -> Any:
    """Decode UTF-8 bytes and parse them.

    Parameters
    ----------
    data : bytes
        The document, UTF-8 (a byte order mark is allowed).
    source, syntax, limits
        As for :func:`read_text`.

    Returns
    -------
    Any
        Plain data, as :func:`read_text` returns it.

    Raises
    ------
    InputError
        Bytes that are not UTF-8 (naming the offset), and as :func:`read_text`.
    LimitError
        As :func:`read_text`.

    Examples
    --------
    >>> read_bytes(b'{"a": 1}')
    {'a': 1}
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the file "
            "as UTF-8",
            file=source,
        ) from None
    return read_text(text, source=source, syntax=syntax, limits=limits)


def read_file(path: str | Path, *, limits: Limits | None = None) -> Any:
    """Read and parse a YAML or JSON file (JSON by its ``.json`` suffix, else YAML).

    Only the named regular file is read, and never more than ``max_file_bytes`` of it.

    Parameters
    ----------
    path : str or Path
        The file.
    limits : Limits, optional
        As for :func:`read_text`.

    Returns
    -------
    Any
        Plain data, as :func:`read_text` returns it.

    Raises
    ------
    InputError
        No such file, a folder or a device, a file that cannot be read, and as
        :func:`read_bytes`.
    LimitError
        A file over ``max_file_bytes``, and as :func:`read_text`.
    """
    limits = limits or default_limits()
    path = Path(path)
    source = str(path)
    try:
        found = path.stat()
        if stat.S_ISDIR(found.st_mode):
            raise InputError("this is a folder, not a file", file=source)
        if not stat.S_ISREG(found.st_mode):  # a pipe or a device may never end
            raise InputError("not a regular file: name a file saved on disk", file=source)
        if found.st_size > limits.max_file_bytes:
            raise limits.refuse("max_file_bytes", "the file is too large", file=source)
        with path.open("rb") as handle:
            data = handle.read(found.st_size + 1)
    except FileNotFoundError:
        raise InputError("no such file", file=source) from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", file=source) from None
    if len(data) > limits.max_file_bytes:
        raise limits.refuse("max_file_bytes", "the file is too large", file=source)
    syntax: Syntax = "json" if path.suffix.lower() == ".json" else "yaml"
    return read_bytes(data, source=source, syntax=syntax, limits=limits)
