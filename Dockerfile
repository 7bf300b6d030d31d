# Pyramid: build the package (it has a C extension, so the build stage has a compiler), then
# serve it from a slim image as a non-root user, with the SQLite file on a volume at /data.
#
#   docker build -t pyramid .
#   docker run -p 8000:8000 -v pyramid-data:/data -e SECRET_KEY="$(openssl rand -hex 32)" pyramid
#
# Settings are the same environment variables as `make run` (see app/settings.py). The image
# runs with ENVIRONMENT=production, which refuses to start without a SECRET_KEY of your own.

FROM python:3.11-slim AS build
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

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
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
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"
# Migrate once, then serve (app/serve.py). Behind a reverse proxy that sets X-Forwarded-*,
# set FORWARDED_ALLOW_IPS to its address so share links use the public scheme and host.
CMD ["python", "-m", "app.serve"]
