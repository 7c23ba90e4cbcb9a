"""The kept pages' 304 (``pwscup.accounts.conditional.kept_answer``), answered before the URL
is even resolved: after every other middleware in ``MIDDLEWARE`` but django-axes (which
acts on log-ins only), so that each treats it as the page's own answer (its headers, its
cookies)."""

from pwscup.accounts.conditional import kept_answer


class KeptPageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = kept_answer(request)
        return answer if answer is not None else self.get_response(request)
