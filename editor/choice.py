"""A question with named answers: the one way the editor asks the user to choose.

Qt's standard Yes/No boxes make the user read the question to know what "Yes" does; the
editor's questions name each answer by what it does ("Overwrite", "Save as...", "Race anyway").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtWidgets import QMessageBox, QWidget


@dataclass(frozen=True)
class Answer:
    """A button of the question: its label, Qt's role for it, and what choosing it returns."""

    label: str
    value: str
    role: QMessageBox.ButtonRole = QMessageBox.ButtonRole.ActionRole


def ask(parent: QWidget | None, title: str, text: str, answers: Sequence[Answer], *,
        default: str, cancelled: str, details: str = "", warning: bool = False) -> str:
    """Show the question with ``answers`` and a Cancel button; the chosen answer's value, or
    ``cancelled`` for Cancel or a closed box. ``default`` is the value whose button Enter
    presses (``cancelled`` for Cancel)."""
    box = QMessageBox(parent)
    if warning:
        box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    if details:
        box.setInformativeText(details)
    buttons = [(box.addButton(answer.label, answer.role), answer.value) for answer in answers]
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(next((b for b, value in buttons if value == default), cancel))
    box.exec()
    clicked = box.clickedButton()
    return next((value for button, value in buttons if button is clicked), cancelled)
