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
COPY lib ./lib
COPY suites ./suites
COPY sim ./sim
COPY fixtures ./fixtures
RUN node scripts/build.mjs

FROM node:20-bookworm-slim
WORKDIR /opt/wincheck
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER node
ENTRYPOINT ["node", "/opt/wincheck/dist/cli/main.js"]
CMD ["run"]
