#!/usr/bin/env Rscript
# SPDX-License-Identifier: MIT
# Regenerates resources/datasets/cps1988.csv.gz from the CPS1988 data set of the AER R package
# (Debian: r-cran-aer). Run from the repository root:   Rscript scripts/convert_cps1988.R
# The output is byte-for-byte reproducible for a given AER version: plain CSV (header, factor
# labels unquoted, numbers in R's shortest 15-significant-digit form, checked to round-trip),
# LF line endings, compressed with `gzip -9n` (no name, no timestamp in the gzip header).

args <- commandArgs(trailingOnly = TRUE)
outDir <- if (length(args) >= 1) args[[1]] else "resources/datasets"
rda <- "/usr/lib/R/site-library/AER/data/CPS1988.rda"

env <- new.env()
load(rda, envir = env)
d <- env$CPS1988
stopifnot(nrow(d) == 28155, ncol(d) == 7)

toText <- function(x) {
    if (is.factor(x)) {
        s <- as.character(x)
        # Unquoted output is only safe when no label needs CSV quoting.
        stopifnot(!any(grepl("[,\"\r\n]", s)), !any(s == ""))
        return(s)
    }
    stopifnot(is.numeric(x), all(is.finite(x)))
    s <- as.character(x)
    # as.character keeps 15 significant digits; fall back to 17 where that would lose a bit.
    lossy <- as.numeric(s) != x
    s[lossy] <- sprintf("%.17g", x[lossy])
    stopifnot(all(as.numeric(s) == x))
    s
}

cols <- lapply(d, toText)
lines <- c(paste(names(d), collapse = ","), do.call(paste, c(cols, sep = ",")))

csv <- file.path(outDir, "cps1988.csv")
con <- file(csv, open = "wb") # binary mode: LF line endings on every platform
writeLines(lines, con, sep = "\n")
close(con)

status <- system2("gzip", c("-9n", "-f", shQuote(csv)))
stopifnot(status == 0)
cat("wrote", paste0(csv, ".gz"), "with", nrow(d), "rows from AER",
    utils::packageDescription("AER", lib.loc = dirname(dirname(dirname(rda))))$Version, "\n")
