#!/usr/bin/env node
// The CLI's entry (dist/cli.js), copied as it is, not bundled: it must run on any Node, so it
// uses nothing newer than ES5 and require(). It checks the Node version before loading the
// bundle (dist/cli-bundle.js), which needs Node 22.19 or newer (@kubernetes/client-node 2.x).
'use strict';
var MIN = [22, 19, 0];
var parts = process.versions.node.split('.').map(Number);
var tooOld = false;
for (var i = 0; i < 3; i++) {
  if (parts[i] > MIN[i]) break;
  if (parts[i] < MIN[i]) {
    tooOld = true;
    break;
  }
}
if (tooOld) {
  process.stderr.write('kube-watch needs Node ' + MIN[0] + '.' + MIN[1] + ' or newer; this is Node ' + parts[0] + '.x\n');
  process.exit(2);
}
require('./cli-bundle.js');
