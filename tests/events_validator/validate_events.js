// Validates kkadm's progress events, JSON Lines, against a JSON Schema (draft 2020-12) with Ajv:
// an implementation independent of kkadm. Usage: node validate_events.js SCHEMA FILE...
// Exit 0 when every line of every file is one JSON object the schema accepts; 1 otherwise, each
// bad line named with its file, number and Ajv's errors. Prints "<n> events, <m> invalid (<kinds>)".
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error("usage: validate_events.js SCHEMA FILE...");
  process.exit(2);
}
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, "utf8")));

let bad = 0;
let count = 0;
const kinds = new Set();
for (const file of files) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    let event;
    try {
      event = JSON.parse(line);
    } catch (e) {
      console.error(`${file}:${i + 1}: not JSON: ${e.message}: ${line}`);
      bad++;
      return;
    }
    count++;
    if (event && typeof event.kind === "string") kinds.add(event.kind);
    if (!validate(event)) {
      console.error(`${file}:${i + 1}: ${ajv.errorsText(validate.errors)}: ${line}`);
      bad++;
    }
  });
}
console.log(`${count} events, ${bad} invalid (${[...kinds].sort().join(" ")})`);
process.exit(bad === 0 && count > 0 ? 0 : 1);
