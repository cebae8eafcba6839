// report_check.js - checks for tests/e2e/test_report.sh, run with node and
// NODE_PATH pointing at the test cache's node_modules (ajv, ajv-formats,
// ajv-draft-04, installed by the test, never committed).
//   node report_check.js sarif SCHEMA FILE   validate SARIF against the official 2.1.0 schema (draft-04)
//   node report_check.js json SCHEMA FILE    validate a report against docs/report-schema.json (draft-07)
//   node report_check.js top FILE METHOD     print file:line of METHOD's top-ranked line in a JSON report
'use strict';
const fs = require('fs');

function load(path) {
  return JSON.parse(fs.readFileSync(path, 'utf8'));
}

function validate(draft04, schemaPath, filePath) {
  const Ajv = draft04 ? require('ajv-draft-04') : require('ajv');
  const addFormats = require('ajv-formats');
  // unicodeRegExp: false because the SARIF schema's language pattern is not valid with the u flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const check = ajv.compile(load(schemaPath));
  if (check(load(filePath))) {
    console.log('valid: ' + filePath);
    return 0;
  }
  console.error('invalid: ' + filePath);
  for (const e of check.errors.slice(0, 20)) console.error('  ' + e.instancePath + ' ' + e.message);
  return 1;
}

function top(filePath, name) {
  const report = load(filePath);
  const method = report.methods.find((m) => m.name === name);
  if (!method || !method.ranking.rank.length) return 1;
  console.log(report.files[method.ranking.file[0]].path + ':' + method.ranking.line[0]);
  return 0;
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'sarif') process.exit(validate(true, a, b));
else if (mode === 'json') process.exit(validate(false, a, b));
else if (mode === 'top') process.exit(top(a, b));
console.error('usage: report_check.js sarif|json SCHEMA FILE | top FILE METHOD');
process.exit(2);
