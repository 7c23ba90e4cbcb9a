"""The scorer round's own REST endpoints (mounted by the API under the round, after the
core's endpoints of its declared submission types, ``submissions.py``: the releases and the
attacks): the downloads (``files.py``), the public pack, my slot's folder, and after the
freeze the targets (``scorer/targets/``) and each target's public ZIP. Messages follow
Accept-Language."""

from pwscup.core.rest import ROUND_PREFIX
from pwscup.scorer.api import files

# Mounted under /api/ by the API (``ScorerKind.api_url_patterns``).
urlpatterns = files.urlpatterns(ROUND_PREFIX + "scorer/")
