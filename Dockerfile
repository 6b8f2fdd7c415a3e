# pgkube's image: `docker build -t pgkube .`, then `docker run pgkube serve --database-url postgres://...`.
# The image always serves a PostgreSQL given by --database-url (or DATABASE_URL): the embedded PostgreSQL of
# `npm start` is for development and is not set up here.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. build: the TypeScript compiled into dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# scripts run later, once the sources are here (`prepare` compiles them)
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY modules ./modules
COPY bench ./bench
# bench (part of the build) imports test helpers
COPY test/support ./test/support
RUN npm run build

# 2. runtime dependencies only (--ignore-scripts: `prepare` needs the compiler, and the embedded PostgreSQL's
# install step is not wanted)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# 3. runtime
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system --gid 10001 pgkube \
  && useradd --system --uid 10001 --gid pgkube --home-dir /var/lib/pgkube --shell /usr/sbin/nologin pgkube \
  && mkdir -p /var/lib/pgkube \
  && chown pgkube:pgkube /var/lib/pgkube
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# read by `pgkube migrate` and at every start
COPY migrations ./migrations
USER 10001:10001
EXPOSE 6443
ENTRYPOINT ["node", "dist/src/main.js"]
CMD ["serve", "--data-dir=/var/lib/pgkube", "--bind-address=0.0.0.0"]
