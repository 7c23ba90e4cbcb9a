"""The site's public pages that span the core and every kind: the home page, a competition's
page, the round page dispatch and the mounting of the kinds' URLs (a face, like the console
and the API)."""
