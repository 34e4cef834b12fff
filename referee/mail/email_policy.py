"""The email package's policy for every mail the referee writes or reads: ``policy.default``,
with each kind of header's class made once. The email package makes a new class each time
a header is set or read (``HeaderRegistry.__getitem__`` calls ``type``), which is three
quarters of what setting a short header costs, and half of ``set_content``."""

from __future__ import annotations

from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry


class HeaderClasses(HeaderRegistry):
    """The email package's header registry, its classes made with it, one for each kind of
    header, instead of at each use."""

    def __init__(self) -> None:
        super().__init__()
        self.classes = {kind: self._class_of(kind) for kind in self._kinds()}

    def _kinds(self) -> set[type]:
        return {*self.registry.values(), self.default_class}

    def _class_of(self, kind: type) -> type[BaseHeader]:
        # as the email package makes them: the kind's parsing, and the str the header is
        return type("_" + kind.__name__, (kind, self.base_class), {})

    def map_to_type(self, name: str, cls: type) -> None:
        super().map_to_type(name, cls)
        self.classes[cls] = self._class_of(cls)

    def __getitem__(self, name: str) -> type[BaseHeader]:
        return self.classes[self.registry.get(name.lower(), self.default_class)]


POLICY = policy.default.clone(header_factory=HeaderClasses())
