"""The template loader that finds each ruleset's templates in its own folder.

The ruleset folders are not Django apps, so ``APP_DIRS`` does not see them: this loader
looks in ``Ruleset.templates_dir`` of every ruleset the registry knows (a ruleset a test
registers too). A ruleset's templates are named ``<slug>/...`` so that they never shadow
one another or the project's.
"""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from rulesets.engine import registry


class RulesetLoader(FilesystemLoader):
    def get_dirs(self):
        return [rs.templates_dir for rs in registry.all_rulesets() if rs.templates_dir.is_dir()]
