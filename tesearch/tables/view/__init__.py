"""``tesearch view``: one self-contained, offline HTML page that shows a table on a canvas.

:mod:`tesearch.tables.view.data` turns a verified table into compact arrays (words by index, letters
as small integers, each word's element, its core / rotation-block / filler class and orbit);
:mod:`tesearch.tables.view.page` inlines them with the page's script and style (``assets/``) into
one HTML file and writes it atomically.
"""
