{% autoescape off %}"""Example: attack every published target of this kit with the lecture's pipeline.

Run in this folder:  python attack_example.py
For each targets/<team>_anonymized.csv it writes answers/<team>_answer.csv, a
correspondence table to upload on the round page (attack phase).
"""

import json
from pathlib import Path

import scoring
from scoring import kit

ORIGINAL = "{{ original }}"
CONFIG = "{{ config }}"

targets = sorted(Path("targets").glob("*_anonymized.csv"))
if not targets:
    print("No target in this kit: download it again once the round is frozen.")
Path("answers").mkdir(exist_ok=True)
for path in targets:
    team = path.name.removesuffix("_anonymized.csv")
    candidates = path.with_name(f"{team}_candidate.csv")
    reference = scoring.read_table(candidates if candidates.exists() else ORIGINAL)
    with open(CONFIG, encoding="utf-8") as handle:
        config = scoring.load_config(json.load(handle), reference)
    published = scoring.read_table(path)
    # Top-3 Euclidean candidates over euc_sa inside the match_qi class, greedy 1:1.
    guesses = kit.lecture_answer(published, reference, config, n=3)
    out = Path("answers") / f"{team}_answer.csv"
    out.write_text(kit.correspondence_lines(guesses), encoding="utf-8")
    print(f"{out}: {int((guesses >= 0).sum())} of {len(guesses)} rows guessed")
{% endautoescape %}
