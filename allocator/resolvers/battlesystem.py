class BattlesystemResolver:
    name = 'battlesystem'
