"""The synthetic round's forms: a release upload, the choice of the final release, an
attack upload on another team's target. Each keeps the file (or the choice) through one
service and goes back to the Submit tab with a message saying what happens next or why
it was refused; a request that asks for JSON (``Accept: application/json``) gets the
answer as JSON, like the other kinds' upload views."""

from pwscup.submissions.round_pages import (
    release_select_view,
    release_upload_view,
    target_upload_view,
)
from pwscup.synthetic import KEY, services
from pwscup.synthetic.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.synthetic.views.common import own_release, published_target, synthetic_part

release_upload = release_upload_view(
    KEY,
    ReleaseUploadForm,
    lambda access, **upload: services.release_upload(synthetic=synthetic_part(access), **upload),
)


attack_upload = target_upload_view(
    KEY,
    published_target,
    AttackUploadForm,
    services.attack_upload,
    lambda target: f"#attack-{target.team.slug}",
)


release_select = release_select_view(KEY, own_release, services.release_select)
