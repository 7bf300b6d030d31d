"""What the pages and the API show: the view models (board, statistics, odds), the board's
answers in every form (``boardpage``: page, htmx fragment, the script's data, a redirect), the
JSON API's shapes, the templates' environment, the error pages, a download. No routes, and no
writes; imports ``core`` alone of the web layer."""
