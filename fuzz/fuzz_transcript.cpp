// SPDX-License-Identifier: MIT
// libFuzzer target: readTranscriptJson, then Session::restore and auditLedger on the fixture, and a
// write/read round trip (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkTranscript, data, size);
}
