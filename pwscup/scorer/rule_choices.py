"""The scorer round's rules offered as choices on its console forms (the creation form and
*Edit the round's rules*): each rule's values with their labels, the rule's label, and the
rules a form may leave out (the default then)."""

from django.utils.translation import gettext_lazy as _

RULE_CHOICES = {
    "attack_mode": [
        ("per_target", _("Each upload attacks one target")),
        ("all_targets", _("One upload covers every target")),
    ],
    "protection_rule": [
        ("worst", _("Worst case: the best attack on the release")),
        ("mean", _("Mean over the teams that attacked it")),
    ],
    "power_rule": [
        ("mean", _("Mean over the targets it attacked")),
        ("top_n", _("Mean over the top N releases only")),
    ],
    "release_rank": [
        ("primary", _("By the release's primary score")),
        ("protection", _("By the release's protection")),
        ("rank_sum", _("By the sum of both ranks")),
    ],
    "visibility": [
        ("exact", _("Exact scores")),
        ("band", _("Only the band a score falls in")),
        ("hidden", _("Hidden until the results are published")),
    ],
    "attack_counts": [
        ("best", _("Its best scored upload on the target")),
        ("last", _("Its newest scored upload (on every target it covers)")),
        ("chosen", _("The upload the team registers, else its newest")),
    ],
    "ranking": [
        ("rules", _("The rules above")),
        ("program", _("My program's ranking command (run from the console after the freeze)")),
    ],
    "attack_withdrawal": [
        ("off", _("No: every scored attack counts")),
        ("until_published", _("Yes, until the results are published")),
    ],
}
# The choices a form may leave out (empty: the default).
LATER_CHOICES = ("attack_withdrawal",)
RULE_LABELS = {
    "attack_mode": _("Attack uploads"),
    "protection_rule": _("A release's protection"),
    "power_rule": _("An attacker's power"),
    "release_rank": _("Release ranking"),
    "visibility": _("What a team sees of its attack scores before publication"),
    "ranking": _("Who ranks the releases and the attackers"),
    "attack_counts": _("Which of an attacker's uploads counts on a target"),
    "attack_withdrawal": _("Teams may withdraw their attack uploads"),
}
