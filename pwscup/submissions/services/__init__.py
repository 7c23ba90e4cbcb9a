"""The upload pipeline and the job machinery every round kind uses (``uploads``, ``jobs``,
``maintenance``)."""
