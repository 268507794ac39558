// SPDX-License-Identifier: MIT
// Sanitizer defaults for the fuzz targets, so a fuzzer run by hand behaves as under scripts/fuzz:
// undefined behaviour stops the run (libFuzzer then saves the input) instead of printing a
// warning and going on. The environment (UBSAN_OPTIONS, ASAN_OPTIONS) still overrides these.
extern "C" const char *__ubsan_default_options()
{
    return "halt_on_error=1:print_stacktrace=1";
}

extern "C" const char *__asan_default_options()
{
    return "detect_leaks=1:allocator_may_return_null=0";
}
