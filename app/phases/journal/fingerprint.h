// A phase's inputs as the journal keeps and compares them: secrets replaced by their hash, one
// fingerprint for the lot, and the differences between two runs named field by field.
#pragma once

#include <string>
#include <vector>

#include "app/workflow/phase.h"

namespace kkadm::phases::journal {

// `inputs` with each secret's value replaced by "sha256:<hex>" and sorted by name: the form the
// journal stores, fingerprints and compares.
std::vector<workflow::PhaseInput> StoredInputs(const std::vector<workflow::PhaseInput>& inputs);

// The SHA-256 of the stored inputs' canonical text (one "name=value" line each, by name).
std::string Fingerprint(const std::vector<workflow::PhaseInput>& stored);

// One line per input that differs: `name "before" → "now"`, with "(none)" for a side that lacks
// it. Both in stored form.
std::vector<std::string> InputDifferences(const std::vector<workflow::PhaseInput>& before,
                                          const std::vector<workflow::PhaseInput>& now);

}  // namespace kkadm::phases::journal
