"""A toy round kind, written as a new game would be: its own folder (a model of its uploads,
its pages, its console pages, its job) and one registration line. The core is not changed
for it: ``tests/pwscup/test_toy_kind.py`` checks that it gets the core's upload pipeline,
lifecycle, exports, notifications and API listing."""
