"""PWSCup 2019's overall award, small and standard library only: the scoring program the tests
of ``test_scorer_2019_overall.py`` upload (docs/scorer.md, "Older editions on this kind").

``score.py release|attack|ranking INPUT OUTPUT``

* release: ``res/u.txt`` holds the release's utility.
* attack (one target per upload): ``res/guess.txt`` holds two numbers, the share of the
  target's IDP users re-identified (``reid``) and the trace inference's success on its TRP set
  (``trace``, 1 − s_T); a real program computes them from ``f.csv`` and ``o.csv``.
* ranking: ``res/standings.json``; a release's ``release`` number is 2019's overall award
  ``s_I,min(IDP) + s_T,min(TRP) = (1 − max_j reid) + (1 − max_j trace)`` over the counted
  attacks on it (``attacks[target][attacker]["scores"]``; a target nobody attacked counts
  1 + 1), an attacker's ``attack`` number its mean ``reid`` over every other team's release
  (a release it did not attack counts 0, 2019's "un-attacked targets count 1").
"""

import json
import os
import sys


def read(input_dir, name):
    with open(os.path.join(input_dir, "res", name), encoding="utf-8") as file:
        return file.read().split()


def score_release(input_dir):
    return {"utility": float(read(input_dir, "u.txt")[0])}


def score_attack(input_dir):
    reid, trace = (float(value) for value in read(input_dir, "guess.txt"))
    return {"reid": reid, "trace": trace}


def score_ranking(input_dir):
    with open(os.path.join(input_dir, "res", "standings.json"), encoding="utf-8") as file:
        standings = json.load(file)
    teams = {}
    for target in standings["releases"]:
        cells = [cell["scores"] for cell in standings["attacks"].get(target, {}).values()]
        best_reid = max((scores["reid"] for scores in cells), default=0.0)
        best_trace = max((scores["trace"] for scores in cells), default=0.0)
        teams[target] = {"release": round((1 - best_reid) + (1 - best_trace), 4)}
    attackers = {attacker for row in standings["attacks"].values() for attacker in row}
    for attacker in attackers:
        others = [target for target in standings["releases"] if target != attacker]
        found = [standings["attacks"].get(target, {}).get(attacker) for target in others]
        total = sum(cell["scores"]["reid"] for cell in found if cell is not None)
        teams.setdefault(attacker, {})["attack"] = round(total / len(others), 4)
    return {"targets": teams}


COMMANDS = {"release": score_release, "attack": score_attack, "ranking": score_ranking}


def main(argv):
    kind, input_dir, output_dir = argv[1:]
    scores = COMMANDS[kind](input_dir)
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as file:
        json.dump(scores, file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
