"""What the pages and the API show, as plain data: the view models (board, statistics, odds),
the JSON API's shapes, the templates' environment, the games file's format. No database, no
routes; imports ``core`` alone of the web layer."""
