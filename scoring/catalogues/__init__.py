"""The parts of the message catalogue of :mod:`scoring.messages`: templates only, no code.

Each module maps codes to their English and Japanese templates and imports nothing, so
:mod:`scoring.messages` merges them all when it is imported (its ``CATALOGUES``) without
loading the round whose codes they are.
"""
