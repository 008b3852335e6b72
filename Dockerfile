# Sheetforge web image: Django served by daphne (HTTP + websockets). See docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .

# Static files are collected into the image and served by whitenoise. collectstatic needs no
# database. Settings refuse DEBUG=false without a SECRET_KEY, so this step alone gets a throwaway
# one (never stored in the image): the running container must be given its own.
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" DEBUG=false \
    python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 sheetforge \
    && chown -R sheetforge /app

USER sheetforge
EXPOSE 8000

# Migrate, optionally load the demo table (SEED_DEMO=true), then serve.
CMD ["sh", "-c", "python manage.py migrate --noinput && if [ \"${SEED_DEMO:-false}\" = \"true\" ]; then python manage.py seed_demo; fi && exec daphne --bind 0.0.0.0 --port 8000 --proxy-headers config.asgi:application"]
