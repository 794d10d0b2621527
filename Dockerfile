# Mostrador's production image (decision 0065). Not built on these machines (no Docker engine,
# no image registry): scripts/check-production.ts reads the runtime stage's `RUN npm ci` and
# `CMD` from this file and runs them in CI, on a copy of the tree without node_modules.
ARG NODE_VERSION=22.23.5

# Build stage: every dependency (vite, TypeScript), the SPA built into apps/web/dist.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

# Runtime stage: the sources, the built SPA and the server's production dependencies only
# (react and MUI are in the built SPA already; vite, TypeScript and the test tools never come).
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY . .
COPY --from=build /app/apps/web/dist apps/web/dist
RUN npm ci --omit=dev --workspace @mostrador/server --include-workspace-root --no-audit --no-fund && npm cache clean --force
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# liveness: /api/health answers 200 while the server and its database do
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# npm forwards SIGTERM to the server it execs (package.json "start"), which drains and exits 0
CMD ["npm", "start"]
