"""What the pages and the API show, as plain data: the view models (board, statistics, odds),
the JSON API's shapes, the templates' environment, the error pages. No routes, and no writes;
imports ``core`` alone of the web layer."""
