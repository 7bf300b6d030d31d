// @ts-check
// Starts Swagger UI on /docs (app/main.py serves the page). This code lives in a file rather
// than in the page because the Content-Security-Policy allows scripts from this site only,
// never inline ones. The options are FastAPI's defaults for its own /docs page.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
