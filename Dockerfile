# The gateway CLI as an image, for compose.yaml (not exercised by the tests: no container engine there).
# Build stage: the dev dependencies bundle src/gateway/cli.ts into one file, dist/cli.cjs, with pg inside it.
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN node esbuild.js

# Run stage: Node 24 (node:sqlite, fetch) and the bundle alone.
FROM node:24-slim
WORKDIR /app
COPY --from=build /src/dist/cli.cjs /src/dist/cli.cjs.map ./
USER node
# The runtime settings of bin/model-gateway.js (docs/benchmarks.md, "Runtime flags").
ENV MALLOC_ARENA_MAX=1
ENTRYPOINT ["node", "--max-semi-space-size=8", "--no-maglev", "--no-allocation-site-pretenuring", "/app/cli.cjs"]
CMD ["--help"]
