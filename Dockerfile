# Pyramid: build the package (it has a C extension, so the build stage has a compiler), then
# serve it from a slim image as a non-root user (uid 10001), with the SQLite file in /data.
#
#   docker build -t pyramid .
#   docker run -d --name pyramid -p 8000:8000 -v pyramid-data:/data \
#       -e SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')" \
#       -e BASE_URL=https://pyramid.example pyramid
#   docker rm -f pyramid && docker volume rm pyramid-data     # the end of it, games included
#
# Settings are the same environment variables as `make run` (see app/settings.py). The image
# runs with ENVIRONMENT=production, which refuses to start without a SECRET_KEY of your own
# (keep it: a new one signs out every player) and a BASE_URL (the public origin), and logs
# one JSON object a line (LOG_FORMAT=json). /data is no VOLUME of the image: name the volume
# that keeps the games (as above), and no anonymous volume is left behind by any container.
#
# The base is Docker Hub's python:3.11-slim unless PYTHON_IMAGE names another: where Docker
# Hub cannot be reached, deploy/local-base/build makes one from Debian's packages
# (docs/deploy.md):
#   podman build --format docker --build-arg PYTHON_IMAGE=localhost/pyramid-base-python:3.11 \
#       -t pyramid .

ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PATH=/opt/venv/bin:$PATH
RUN python -m venv /opt/venv
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY app ./app
# Editable install at the same path as in the final image: the dependencies go into the venv
# and the solver's C extension is compiled in place, next to its Python package.
RUN pip install --upgrade pip && pip install -e .
# The language catalogs compiled (app/locale/*/LC_MESSAGES/messages.mo; docs/languages.md).
RUN pybabel -q compile -d app/locale -D messages

FROM ${PYTHON_IMAGE}
# What the image is, for `docker inspect` and registries (OCI's annotation keys): the builder
# passes the commit and the version, e.g.
#   --build-arg REVISION="$(git rev-parse HEAD)" --build-arg VERSION=0.1.0
# The commit is also PYRAMID_REVISION, which /healthz and the pyramid_build_info metric report
# (the image has no .git to read it from).
ARG REVISION=""
ARG VERSION="0.1.0"
ARG CREATED=""
LABEL org.opencontainers.image.title="Pyramid" \
      org.opencontainers.image.description="Pyramid Solitaire in the browser: the standard and whole-deck goals, a solver and honest statistics" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.documentation="docs/deploy.md"
ENV PYRAMID_REVISION=${REVISION} \
    PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    LOG_FORMAT=json \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite:////data/pyramid.db
RUN groupadd --system --gid 10001 pyramid \
    && useradd --system --uid 10001 --gid pyramid --home-dir /app --shell /usr/sbin/nologin pyramid \
    && mkdir /data && chown pyramid:pyramid /data
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY docs ./docs
USER pyramid
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"
# Migrate once, then serve (app/serve.py). Behind a reverse proxy that sets X-Forwarded-*,
# set TRUSTED_PROXIES to its address (and only its: docs/deploy.md).
CMD ["python", "-m", "app.serve"]
