"""The live pipeline over saved frames, and position reports for ``analyze``.

Nothing here touches the mouse or the screen: replay decodes screenshots,
asks the solver again and compares with what was recorded.
"""
