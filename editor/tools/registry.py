"""The tools, in toolbar order."""

from __future__ import annotations

from editor.tools.align_tool import AlignTool
from editor.tools.arrow_tool import ArrowTool
from editor.tools.base import Tool
from editor.tools.corner_tool import CornerTool
from editor.tools.lane_tool import LaneTool
from editor.tools.layout_tools import FinishTool, GridTool
from editor.tools.moves_tool import MovesTool
from editor.tools.pit_tool import PitTool
from editor.tools.select_tool import SelectTool
from editor.tools.space_tool import SpaceTool


def tool_classes() -> list[type[Tool]]:
    return [
        SelectTool,
        LaneTool,
        SpaceTool,
        ArrowTool,
        CornerTool,
        FinishTool,
        GridTool,
        PitTool,
        AlignTool,
        MovesTool,
    ]
