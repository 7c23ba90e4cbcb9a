"""``{{ submission|job_message }}``: a job's failure message in the reader's language."""

from django import template

from pwscup.submissions.messages import job_message_text

register = template.Library()


@register.filter
def job_message(job) -> str:
    return job_message_text(job)
