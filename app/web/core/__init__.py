"""What every request and every other part of the web layer uses: the request's language and
player, errors and their pages, links, form and query parameters, the guards (CSRF, security
headers, budgets), metrics. Imports nothing else of the web layer."""
