{% autoescape off %}"""Example: anonymize {{ original }} with the starter kit, check it, score it locally.

Run in this folder:  python anonymize_example.py
Writes anonymized.csv, a valid submission to upload on the round page.
"""

import json

import scoring
from scoring import kit

ORIGINAL = "{{ original }}"
CONFIG = "{{ config }}"
ATTR_DEPTH = "attr_depth.json"  # an example hierarchy of the round's QI columns: edit it

original = scoring.read_table(ORIGINAL)
with open(CONFIG, encoding="utf-8") as handle:
    config = scoring.load_config(json.load(handle), original)
hierarchy = kit.load_hierarchy(ATTR_DEPTH)

# 1. Generalize every QI column of attr_depth.json to level 1 (values mapped back to
#    original values), 2. swap the SA values inside each QI class, 3. delete the most
#    outlying row. Any method of `python -m scoring anonymize --help` can be chained.
table = kit.generalize(original, config, hierarchy=hierarchy, levels=dict.fromkeys(hierarchy, 1))
table = kit.swap_in_class(table, config, seed=1)
table = kit.delete_outliers(table, config, d=1)

scoring.validate_submission(original, table, config)  # what the server checks first
scoring.write_csv(table, "anonymized.csv")
scores = scoring.evaluate(original, table, config)
print("anonymized.csv written; local scores:")
for metric in scoring.METRICS:
    print(f"  {metric:<5} {scores[metric]}")
{% endautoescape %}
