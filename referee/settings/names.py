"""Where a site keeps its settings and its state, named once for every reader: the loader of
referee.yaml, the site's files, and a tick at rest, which reads neither."""

CONFIG_NAME = "referee.yaml"
STATE_FOLDER = "state"  # beside referee.yaml, always
