// SPDX-License-Identifier: MIT
// gunzip(): round trips against zlib's own gzip writer, multi-member files, and refusals.
#include "core/io/gzip.h"

#include "tests/testutils.h"

#include <zlib.h>

using pbx::ErrorCode;
using pbx::io::gunzip;

namespace {

// Reference compressor: zlib's deflate with a gzip wrapper (what `gzip -9` produces, modulo
// header fields).
std::string gzipCompress(const std::string &data)
{
    z_stream stream{};
    if (deflateInit2(&stream, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        qFatal("deflateInit2 failed");
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    if (deflate(&stream, Z_FINISH) != Z_STREAM_END)
        qFatal("deflate did not finish");
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string pseudoRandomText(std::size_t size)
{
    std::string text(size, '\0');
    std::uint32_t state = 12345;
    for (char &c : text) {
        state = state * 1664525u + 1013904223u; // LCG: deterministic, poorly compressible
        c = static_cast<char>('a' + (state >> 24) % 26);
    }
    return text;
}

} // namespace

class TestGzip : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void concatenatedMembers();
    void refusals_data();
    void refusals();
    void outputLimit();
};

void TestGzip::roundTrip_data()
{
    QTest::addColumn<std::string>("payload");
    QTest::newRow("empty") << std::string();
    QTest::newRow("short text") << std::string("wage,region\n1,south\n");
    QTest::newRow("binary with zeros") << std::string("\0\1\2\0\xff", 5);
    QTest::newRow("3 MiB repetitive (several output chunks)") << std::string(3 << 20, 'x');
    QTest::newRow("1 MiB pseudo-random") << pseudoRandomText(1 << 20);
}

void TestGzip::roundTrip()
{
    QFETCH(std::string, payload);
    const auto result = gunzip(gzipCompress(payload));
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    QCOMPARE(result->size(), payload.size());
    QVERIFY(*result == payload);
}

void TestGzip::concatenatedMembers()
{
    const auto result = gunzip(gzipCompress("first,") + gzipCompress("second"));
    QVERIFY(result.ok());
    QCOMPARE(*result, std::string("first,second"));
}

void TestGzip::refusals_data()
{
    const std::string good = gzipCompress(pseudoRandomText(4096));
    std::string corrupt = good;
    corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x55);
    std::string badCrc = good;
    badCrc[badCrc.size() - 6] = static_cast<char>(badCrc[badCrc.size() - 6] ^ 1); // CRC32 field

    QTest::addColumn<std::string>("input");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty input") << std::string() << "gzip data is empty";
    QTest::newRow("not gzip") << std::string("wage,region\n") << "not gzip data";
    QTest::newRow("only the magic") << std::string("\x1f\x8b") << "truncated gzip data";
    QTest::newRow("corrupt deflate data") << corrupt << "corrupt gzip data";
    QTest::newRow("wrong checksum") << badCrc << "corrupt gzip data: incorrect data check";
    QTest::newRow("truncated") << good.substr(0, good.size() - 10) << "truncated gzip data";
    QTest::newRow("trailing garbage") << good + "junk"
                                      << "unexpected bytes after the end";
}

void TestGzip::refusals()
{
    QFETCH(std::string, input);
    QFETCH(QString, message);
    const auto result = gunzip(input);
    QVERIFY(!result.ok());
    QCOMPARE(static_cast<int>(result.error().code), static_cast<int>(ErrorCode::Parse));
    QVERIFY2(QString::fromStdString(result.error().message).contains(message),
             result.error().message.c_str());
}

void TestGzip::outputLimit()
{
    // 4 MiB of zeros compresses to about 4 KiB: the limit, not the input size, must stop it.
    const std::string bomb = gzipCompress(std::string(4 << 20, '\0'));
    QVERIFY(bomb.size() < 10000);
    const auto refused = gunzip(bomb, 1 << 20);
    QVERIFY(!refused.ok());
    QCOMPARE(static_cast<int>(refused.error().code), static_cast<int>(ErrorCode::InvalidArgument));
    QVERIFY2(refused.error().message.find("expands to more than 1048576 bytes") != std::string::npos,
             refused.error().message.c_str());
    // Exactly at the limit is allowed.
    const auto exact = gunzip(bomb, 4 << 20);
    QVERIFY(exact.ok());
    QCOMPARE(exact->size(), std::size_t{4} << 20);
    PBX_VERIFY_ERROR(gunzip(bomb, 0), InvalidArgument, "output limit");
    QCOMPARE(pbx::io::defaultMaxGunzipBytes, std::size_t{512} << 20);
}

QTEST_APPLESS_MAIN(TestGzip)
#include "tst_gzip.moc"
