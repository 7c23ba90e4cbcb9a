"""``{{ submission|job_message }}``: a job's failure message in the reader's language;
``{{ upload|void_note }}``: what the team's pages say of a voided upload (``""``: it counts)."""

from django import template

from pwscup.submissions.messages import job_message_text
from pwscup.submissions.voids import void_text

register = template.Library()


@register.filter
def job_message(job) -> str:
    return job_message_text(job)


@register.filter
def void_note(upload) -> str:
    return void_text(upload)
