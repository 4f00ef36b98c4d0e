# wincheck as a container image (Linux nodes): the CLI built to plain JS (no tsx at run time),
# run as the image's non-root "node" user. Used by the Sonobuoy plugin (ci/sonobuoy/) and any
# in-cluster Job; in a pod the kubeconfig is the service account's (in-cluster config).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY cli ./cli
COPY util ./util
COPY lib ./lib
COPY sim ./sim
RUN node scripts/build.mjs
# The image runs dist/ only: the build's and the tests' packages (devDependencies) stay behind.
RUN npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
WORKDIR /opt/wincheck
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER node
ENTRYPOINT ["node", "/opt/wincheck/dist/cli/main.js"]
CMD ["run"]
