// Prints the one closing line CI reads ("N passed, N failed") from the runners' JSON reports.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestFile, playwrightFile, gateFile] = process.argv.slice(2);

if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A file that failed to load has no tests to count but is still a failure.
  failed += report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
} else {
  console.error(`missing vitest report ${vitestFile}`);
  failed += 1;
}

if (existsSync(playwrightFile)) {
  const { stats } = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else {
  console.error(`missing playwright report ${playwrightFile}`);
  failed += 1;
}

// The benchmark gate: each figure within its baseline passes, each more than 25 % worse fails.
if (gateFile) {
  if (existsSync(gateFile)) {
    const gate = JSON.parse(readFileSync(gateFile, 'utf8'));
    passed += gate.passed;
    failed += gate.failed;
  } else {
    console.error(`missing benchmark gate report ${gateFile}`);
    failed += 1;
  }
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
