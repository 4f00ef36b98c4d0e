// mocha reporter for CI: prints like "spec" and writes the counts of the same run as JSON
// (--reporter-option json=FILE), so .ci/run's last line comes from mocha itself.
const fs = require('node:fs');
const Mocha = require('mocha');

class CiReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options.reporterOptions && options.reporterOptions.json;
    let passes = 0,
      failures = 0,
      pending = 0;
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, () => {
      passes++;
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, () => {
      failures++;
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_PENDING, () => {
      pending++;
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      if (file) fs.writeFileSync(file, JSON.stringify({ passes, failures, pending }));
    });
  }
}
module.exports = CiReporter;
