"""A console form taking a file for one of the round's data choices (a scorer round's data
pack, a synthetic round's population): the round's choices offered as ``key: label``."""

from django import forms


class DataChoiceFileForm(forms.Form):
    """The kind's form declares its ``choice`` field and its file; ``choices``: the round's
    data choices (``round_choices``). ``no_choice_label``: the option of a file serving
    every choice without one of its own (none: a choice must be picked); without any data
    choice, the field is then hidden."""

    no_choice_label = None

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        options = [(choice.key, f"{choice.key}: {choice.label_shown}") for choice in choices]
        if self.no_choice_label is not None:
            options.insert(0, ("", self.no_choice_label))
            if not choices:
                self.fields["choice"].widget = forms.HiddenInput()
        self.fields["choice"].choices = options
