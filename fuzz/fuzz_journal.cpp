// SPDX-License-Identifier: MIT
// libFuzzer target: readJournalText and readSessionJournalText, on the bytes and re-chained, then restore and
// audit (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkJournal, data, size);
}
