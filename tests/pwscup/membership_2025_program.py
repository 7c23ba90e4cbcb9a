"""PWSCup 2025's scores, small and standard library only: the scoring program the tests of
``test_scorer_counted_attacks.py`` upload (docs/scorer.md, "PWSCup 2025 on this platform").

``score.py release|attack|ranking INPUT OUTPUT``

* release: ``res/U.txt`` holds the release's utility ``U``.
* attack: ``res/FF.csv``, one 0/1 column per team number (``col1``, ``col2``...) and one row
  per row of the population; a target's members are the 1s of ``ref/team_NN/ZZ.csv`` (NN its
  slot). Writes each target's true positives ``tp`` and their sum.
* ranking: ``res/standings.json``; on each target, ``anonymity = max(0, (members - max_j
  TP_ij) - (L - 1))``, L the most attackers whose counted answer
  (``attacks/<attacker>/<upload>/FF.csv``) hits the same member row; a release's score is
  ``U + anonymity``, an attacker's the sum of its counted true positives.
"""

import csv
import json
import os
import sys


def read_json(*parts):
    with open(os.path.join(*parts), encoding="utf-8") as file:
        return json.load(file)


def members(input_dir, slot):
    """The target's membership bits, one per row of the population."""
    with open(os.path.join(input_dir, "ref", f"team_{slot:02d}", "ZZ.csv")) as file:
        return [int(line) for line in file.read().split()]


def guesses(path, slot):
    """The answer's column of the team in ``slot``."""
    with open(path, newline="") as file:
        rows = list(csv.reader(file))[1:]
    return [int(row[slot - 1]) for row in rows]


def score_release(input_dir):
    with open(os.path.join(input_dir, "res", "U.txt")) as file:
        return {"U": float(file.read())}


def score_attack(input_dir):
    context = read_json(input_dir, "context.json")
    answer = os.path.join(input_dir, "res", "FF.csv")
    targets = {}
    for target in context["targets"]:
        slot = context["target_slots"][target]
        hits = zip(guesses(answer, slot), members(input_dir, slot), strict=True)
        targets[target] = {"tp": sum(1 for guess, member in hits if guess and member)}
    return {"tp": sum(t["tp"] for t in targets.values()), "targets": targets}


def score_ranking(input_dir):
    standings = read_json(input_dir, "res", "standings.json")
    slots = read_json(input_dir, "context.json")["target_slots"]
    teams = {}
    for target, counted in standings["attacks"].items():
        slot, truth = slots[target], members(input_dir, slots[target])
        best = max((cell["scores"]["tp"] for cell in counted.values()), default=0)
        hits = [0] * len(truth)
        for attacker, cell in counted.items():
            answer = os.path.join(input_dir, "attacks", attacker, str(cell["upload"]), "FF.csv")
            for row, guess in enumerate(guesses(answer, slot)):
                hits[row] += guess * truth[row]
        penalty = max(max(hits, default=0) - 1, 0)  # L - 1
        anonymity = max(0, (sum(truth) - best) - penalty)
        teams.setdefault(target, {})["release"] = standings["releases"][target]["U"] + anonymity
        for attacker, cell in counted.items():
            mine = teams.setdefault(attacker, {})
            mine["attack"] = mine.get("attack", 0) + cell["scores"]["tp"]
    return {"teams": len(teams), "targets": teams}


COMMANDS = {"release": score_release, "attack": score_attack, "ranking": score_ranking}

if __name__ == "__main__":
    kind, input_folder, output_folder = sys.argv[1:]
    with open(os.path.join(output_folder, "scores.json"), "w", encoding="utf-8") as out:
        json.dump(COMMANDS[kind](input_folder), out)
