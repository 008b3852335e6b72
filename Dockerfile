# Sheetforge's image: one image, three roles (docker-compose.yml): `web` (gunicorn, WSGI; the
# default command), `ws` (daphne, websockets only) and the one-shot `migrate`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .

# Static files are collected into the image: the web and ws processes read the manifest (hashed
# names) from it; the `migrate` service copies them into the volume nginx serves. collectstatic
# needs no database; the throw-away SECRET_KEY is for this step only (production sets its own).
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" DEBUG=false \
        python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 sheetforge \
    && chown -R sheetforge /app

USER sheetforge
EXPOSE 8000

# WSGI: one sync worker per core (WEB_CONCURRENCY overrides), deploy/gunicorn.conf.py.
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "--bind", "0.0.0.0:8000", "config.wsgi:application"]
