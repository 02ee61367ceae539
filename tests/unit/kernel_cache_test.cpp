// The on-disk kernel cache: SHA-256 against the FIPS 180-4 examples, the key, the entry
// format, and the cache in use: hits, misses, bad entries, LRU eviction, several processes
// at once, and the tally binary reading a cache that an earlier process wrote. Every test
// uses its own temporary cache directory.
#include "runtime/compile/kernel_cache.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "compiler/common/hash_bytes.h"
#include "runtime/compile/kernel_cache_entry.h"
#include "runtime/compile/sha256.h"
#include "tests/unit/support/shell.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

using test::ScratchDir;
using test::shell_quote;

// ---- the cache in-process, with small fake payloads ----

struct Harness {
  ScratchDir dir{"tally_kc"};
  std::vector<std::string> warnings;
  KernelCache cache;

  explicit Harness(uint64_t max_bytes = kDefaultKernelCacheBytes)
      : cache(KernelCacheConfig{true, dir.path() / "cache", max_bytes},
              [this](const std::string& w) { warnings.push_back(w); }) {}
};

KernelCacheKey key_of(const std::string& source) {
  KernelCacheKeyInputs inputs;
  inputs.source = source;
  inputs.nvrtc_args = {"-arch=sm_90"};
  inputs.arch = "sm_90";
  inputs.nvrtc_version = 13000;
  return kernel_cache_key(inputs);
}

cuda::CompiledKernel fake_kernel(const std::string& bytes, bool is_ptx = false) {
  cuda::CompiledKernel k;
  k.image.assign(bytes.begin(), bytes.end());
  k.is_ptx = is_ptx;
  k.compile_ms = 123.5;
  return k;
}

fs::path entry_path(const Harness& h, const KernelCacheKey& key) {
  return h.cache.config().directory / (key.hex() + ".tkc");
}

std::string image_text(const cuda::CompiledKernel& k) { return {k.image.begin(), k.image.end()}; }

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

TEST_CASE("sha256 matches the FIPS 180-4 examples") {
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // A million 'a', fed in uneven pieces to exercise the buffering.
  Sha256 hash;
  std::string piece(999, 'a');
  for (int i = 0; i < 1001; ++i) hash.update(piece);
  hash.update(std::string(1'000'000 - 999 * 1001, 'a'));
  CHECK(to_hex(hash.finish()) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("kernel cache key changes with every input that changes the binary") {
  KernelCacheKeyInputs base;
  base.source = "__global__ void k() {}";
  base.arch = "sm_90";
  base.nvrtc_args = cuda::nvrtc_arguments(cuda::CompileOptions{});
  base.nvrtc_version = 13000;
  KernelCacheKey k = kernel_cache_key(base);
  CHECK(k.hex().size() == 64);
  CHECK(kernel_cache_key(base) == k);

  auto differs = [&](auto change) {
    KernelCacheKeyInputs other = base;
    change(other);
    return !(kernel_cache_key(other) == k);
  };
  CHECK(differs([](auto& i) { i.source += " "; }));
  CHECK(differs([](auto& i) { i.nvrtc_version = 13010; }));
  CHECK(differs([](auto& i) { i.tally_version = "9.9.9"; }));
  // A template edited under an unchanged generated source is a new binary.
  CHECK(differs([](auto& i) { i.headers += " "; }));
  CHECK(KernelCacheKeyInputs::device_library().find("tally_decode.cuh") != std::string::npos);
  CHECK(KernelCacheKeyInputs::device_library().find("struct LaneChunk") != std::string::npos);
  CHECK(base.headers == to_hex(sha256(KernelCacheKeyInputs::device_library())));
  CHECK(differs([](auto& i) {
    cuda::CompileOptions fmad;
    fmad.fmad = true;
    i.nvrtc_args = cuda::nvrtc_arguments(fmad);
  }));
  CHECK(differs([](auto& i) {
    cuda::CompileOptions ptx;
    ptx.arch = "compute_90";
    i.arch = ptx.arch;
    i.nvrtc_args = cuda::nvrtc_arguments(ptx);
  }));
  // Fields are length-prefixed: moving a byte from one argument to the next is a new key.
  KernelCacheKeyInputs a = base, b = base;
  a.nvrtc_args = {"-DX", "Y"};
  b.nvrtc_args = {"-D", "XY"};
  CHECK(!(kernel_cache_key(a) == kernel_cache_key(b)));
  CHECK(base.tally_version == TALLY_EXPECTED_VERSION);
}

TEST_CASE("kernel cache entry format: header fields and round trip") {
  KernelCacheKey key = key_of("x");
  std::string bytes = encode_kernel_entry(key, fake_kernel("PTX TEXT", true));
  REQUIRE(bytes.size() == kKernelCacheHeaderBytes + 8);
  CHECK(bytes.substr(0, 8) == "TALLYKC1");
  CHECK(bytes[8] == 2);   // format version, little-endian
  CHECK(bytes[12] == 1);  // the PTX flag
  CHECK(bytes[48] == 8);  // payload length
  const uint64_t checksum = hash_bytes("PTX TEXT");
  for (int i = 0; i < 8; ++i)
    CHECK(static_cast<uint8_t>(bytes[56 + i]) == ((checksum >> (8 * i)) & 0xff));
  CHECK(bytes.substr(64, 24) == std::string(24, '\0'));
  // Any one bit of the payload, its length, or a word moved changes the checksum.
  CHECK(hash_bytes("PTX TEXU") != checksum);
  CHECK(hash_bytes("PTX TEXT ") != checksum);
  CHECK(hash_bytes("12345678abcdefgh") != hash_bytes("abcdefgh12345678"));
  DecodedKernelEntry back = decode_kernel_entry(bytes, key);
  REQUIRE(back.kernel);
  CHECK(image_text(*back.kernel) == "PTX TEXT");
  CHECK(back.kernel->is_ptx);
  CHECK(back.kernel->compile_ms == 123.5);
  CHECK(decode_kernel_entry(bytes, key_of("y")).problem == "key does not match the name");
}

TEST_CASE("kernel cache: a miss - then a hit with the stored binary") {
  Harness h;
  KernelCacheKey key = key_of("kernel one");
  CHECK(!h.cache.load(key));
  h.cache.store(key, fake_kernel("CUBIN-1"));
  auto hit = h.cache.load(key);
  REQUIRE(hit);
  CHECK(image_text(*hit) == "CUBIN-1");
  CHECK(!hit->is_ptx);
  CHECK(hit->compile_ms == 123.5);
  CHECK(!h.cache.load(key_of("kernel two")));
  CHECK(h.warnings.empty());
  KernelCacheStats s = h.cache.stats();
  CHECK(s.entries == 1);
  CHECK(s.bytes == kKernelCacheHeaderBytes + 7);
  CHECK(h.cache.clear() == 1);
  CHECK(!h.cache.load(key));
}

// Damages the entry of `key`, loads it, and checks that the damage was reported, the entry
// deleted, and that storing again gives a good entry.
void check_reported_and_rebuilt(Harness& h, const KernelCacheKey& key, const std::string& reason) {
  CHECK(!h.cache.load(key));
  REQUIRE(h.warnings.size() == 1);
  CHECK(h.warnings[0].find(reason) != std::string::npos);
  CHECK(h.warnings[0].find("compiling again") != std::string::npos);
  CHECK(!fs::exists(entry_path(h, key)));
  h.cache.store(key, fake_kernel("CUBIN-REBUILT"));
  auto hit = h.cache.load(key);
  REQUIRE(hit);
  CHECK(image_text(*hit) == "CUBIN-REBUILT");
}

TEST_CASE("kernel cache: a corrupted entry is reported - discarded and rebuilt") {
  Harness h;
  KernelCacheKey key = key_of("k");
  h.cache.store(key, fake_kernel("CUBIN-ORIGINAL"));
  std::string bytes = test::slurp(entry_path(h, key));
  bytes[kKernelCacheHeaderBytes + 3] ^= 0x01;
  write_bytes(entry_path(h, key), bytes);
  check_reported_and_rebuilt(h, key, "checksum mismatch");
}

TEST_CASE("kernel cache: a truncated entry is reported - discarded and rebuilt") {
  Harness h;
  KernelCacheKey key = key_of("k");
  h.cache.store(key, fake_kernel("CUBIN-ORIGINAL"));
  std::string bytes = test::slurp(entry_path(h, key));
  write_bytes(entry_path(h, key), bytes.substr(0, bytes.size() - 4));
  check_reported_and_rebuilt(h, key, "payload is 10 bytes, header says 14");

  Harness header_only;
  header_only.cache.store(key, fake_kernel("CUBIN"));
  write_bytes(entry_path(header_only, key), "TALLYKC1");
  check_reported_and_rebuilt(header_only, key, "truncated header (8 of 96 bytes)");
}

TEST_CASE("kernel cache: an unreadable entry is reported - discarded and rebuilt") {
  // root reads a file whatever its mode, so chmod 000 proves nothing there.
  if (geteuid() == 0) {
    MESSAGE("skipped: running as root, which can read a chmod 000 file");
    return;
  }
  Harness h;
  KernelCacheKey key = key_of("k");
  h.cache.store(key, fake_kernel("CUBIN"));
  fs::permissions(entry_path(h, key), fs::perms::none);
  check_reported_and_rebuilt(h, key, "Permission denied");
}

TEST_CASE("kernel cache: a full cache evicts the least recently used entries") {
  // Room for three 100-byte entries (96-byte header + 4-byte payload).
  Harness h(300);
  std::vector<KernelCacheKey> keys = {key_of("a"), key_of("b"), key_of("c"), key_of("d")};
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 3; ++i) {
    h.cache.store(keys[i], fake_kernel(fmt::format("K{:03}", i)));
    // Distinct, ordered ages: a written 300 s ago, b 200 s, c 100 s.
    fs::last_write_time(entry_path(h, keys[i]), now - std::chrono::seconds(300 - 100 * i));
  }
  REQUIRE(h.cache.stats().entries == 3);
  REQUIRE(h.cache.load(keys[0]));  // a hit makes "a" the most recently used
  h.cache.store(keys[3], fake_kernel("K003"));
  CHECK(h.cache.stats().entries == 3);
  CHECK(h.cache.stats().bytes <= 300);
  CHECK(fs::exists(entry_path(h, keys[0])));
  CHECK(!fs::exists(entry_path(h, keys[1])));  // the least recently used
  CHECK(fs::exists(entry_path(h, keys[2])));
  CHECK(fs::exists(entry_path(h, keys[3])));
  CHECK(h.warnings.empty());
}

TEST_CASE("kernel cache: a directory that cannot be made is reported - not thrown") {
  ScratchDir dir("tally_kc");
  write_bytes(dir.path() / "file", "not a directory");
  std::vector<std::string> warnings;
  KernelCache cache(KernelCacheConfig{true, dir.path() / "file" / "cache"},
                    [&](const std::string& w) { warnings.push_back(w); });
  CHECK_NOTHROW(cache.store(key_of("k"), fake_kernel("CUBIN")));
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("cannot create the directory") != std::string::npos);
  CHECK(warnings[0].find("runs without caching") != std::string::npos);
}

TEST_CASE("kernel cache: disabled - it neither stores nor loads") {
  ScratchDir dir("tally_kc");
  KernelCache cache(KernelCacheConfig{false, dir.path() / "cache"});
  cache.store(key_of("k"), fake_kernel("CUBIN"));
  CHECK(!fs::exists(dir.path() / "cache"));
  CHECK(!cache.load(key_of("k")));
}

// ---- the tally binary, fresh processes sharing one cache directory ----

const char* const kQuery =
    "CREATE TABLE t (k INTEGER, v BIGINT); INSERT INTO t VALUES (1, 10), (2, 20), (1, 5); "
    "SELECT k, SUM(v), COUNT(*) FROM t GROUP BY k;";

struct Run {
  int exit_code = -1;
  std::string out, err;
};

// `tally ARGS` with the cache in `cache_dir` (and the test process's TALLY_CACHE_DISABLE
// removed); `environment` adds assignments such as "TALLY_CACHE_DISABLE=1".
std::string tally_command(const fs::path& cache_dir, const std::string& args,
                          const std::string& environment = "") {
  return fmt::format("env -u TALLY_CACHE_DISABLE TALLY_CACHE_DIR={} {} {} {}",
                     shell_quote(cache_dir.string()), environment, shell_quote(TALLY_BINARY), args);
}

Run tally(const fs::path& cache_dir, const std::string& args, const std::string& env = "") {
  ScratchDir io("tally_kc_io");
  Run r;
  r.exit_code = test::run_shell(fmt::format(
      "{} </dev/null >{} 2>{}", tally_command(cache_dir, args, env),
      shell_quote((io.path() / "out").string()), shell_quote((io.path() / "err").string())));
  r.out = test::slurp(io.path() / "out");
  r.err = test::slurp(io.path() / "err");
  return r;
}

std::string compile_args(const std::string& arch = "sm_90") {
  return fmt::format("compile --arch {} -e {}", arch, shell_quote(kQuery));
}

std::vector<KernelCacheFile> entries_in(const fs::path& dir) {
  return list_kernel_cache_files(dir);
}

TEST_CASE("kernel cache: a second tally process loads the kernel from disk") {
  if (!cuda::nvrtc_available()) return;
  ScratchDir dir("tally_kc");
  fs::path cache = dir.path() / "cache";
  Run first = tally(cache, compile_args());
  REQUIRE(first.exit_code == 0);
  CHECK(contains(first.out, "COMPILE sm_90"));
  CHECK(!contains(first.out, "cache"));
  CHECK(first.err.empty());
  REQUIRE(entries_in(cache).size() == 1);

  Run second = tally(cache, compile_args());
  REQUIRE(second.exit_code == 0);
  CHECK(contains(second.out, "(disk cache, loaded in"));
  CHECK(entries_in(cache).size() == 1);

  // compute_90 (PTX) is another binary: a miss, and a second entry.
  Run ptx = tally(cache, compile_args("compute_90"));
  REQUIRE(ptx.exit_code == 0);
  CHECK(contains(ptx.out, "COMPILE compute_90"));
  CHECK(!contains(ptx.out, "disk cache"));
  CHECK(entries_in(cache).size() == 2);

  Run stats = tally(cache, "cache stats");
  CHECK(contains(stats.out, "entries:   2"));
  CHECK(contains(stats.out, fmt::format("directory: {}\n", cache.string())));
  CHECK(contains(stats.out, fmt::format("limit:     {} bytes", kDefaultKernelCacheBytes)));
  Run list = tally(cache, "cache list");
  for (const auto& e : entries_in(cache)) CHECK(contains(list.out, e.key_hex.substr(0, 16)));
  CHECK(contains(list.out, "2 entries"));
  Run clear = tally(cache, "cache clear");
  CHECK(contains(clear.out, "removed 2 entries"));
  CHECK(entries_in(cache).empty());
}

TEST_CASE("kernel cache: two processes compiling the same statement at once") {
  if (!cuda::nvrtc_available()) return;
  ScratchDir dir("tally_kc");
  fs::path cache = dir.path() / "cache";
  fs::path rc1 = dir.path() / "rc1", rc2 = dir.path() / "rc2";
  std::string one = tally_command(cache, compile_args()) + " >/dev/null 2>&1; echo $? >" +
                    shell_quote(rc1.string());
  std::string two = tally_command(cache, compile_args()) + " >/dev/null 2>&1; echo $? >" +
                    shell_quote(rc2.string());
  test::run_shell("(" + one + ") & (" + two + ") & wait");
  CHECK(test::slurp(rc1) == "0\n");
  CHECK(test::slurp(rc2) == "0\n");
  // One entry, no temporary files left (beside the NVRTC version stamp), and it is whole:
  // a third process loads it.
  size_t files = 0;
  for (const auto& f : fs::directory_iterator(cache))
    files += f.path().filename() != "nvrtc-version";
  CHECK(files == 1);
  CHECK(entries_in(cache).size() == 1);
  Run third = tally(cache, compile_args());
  CHECK(contains(third.out, "(disk cache"));
  CHECK(third.err.empty());
}

TEST_CASE("kernel cache: tally reports a corrupted entry and compiles again") {
  if (!cuda::nvrtc_available()) return;
  ScratchDir dir("tally_kc");
  fs::path cache = dir.path() / "cache";
  REQUIRE(tally(cache, compile_args()).exit_code == 0);
  REQUIRE(entries_in(cache).size() == 1);
  fs::path entry = entries_in(cache)[0].path;
  std::string bytes = test::slurp(entry);
  bytes[bytes.size() / 2] ^= 0x40;
  write_bytes(entry, bytes);

  Run rebuilt = tally(cache, compile_args());
  REQUIRE(rebuilt.exit_code == 0);
  CHECK(contains(rebuilt.err, "warning: kernel cache: discarded the entry"));
  CHECK(contains(rebuilt.err, "checksum mismatch"));
  CHECK(!contains(rebuilt.out, "disk cache"));
  Run after = tally(cache, compile_args());
  CHECK(contains(after.out, "(disk cache"));
  CHECK(after.err.empty());
}

TEST_CASE("kernel cache: another NVRTC option is another entry - not a hit") {
  if (!cuda::nvrtc_available()) return;
  ScratchDir dir("tally_kc");
  fs::path cache = dir.path() / "cache";
  REQUIRE(tally(cache, compile_args()).exit_code == 0);
  REQUIRE(entries_in(cache).size() == 1);
  // TALLY_NVRTC_OPTIONS adds options (cuda::nvrtc_arguments): -lineinfo changes the cubin.
  Run lineinfo = tally(cache, compile_args(), "TALLY_NVRTC_OPTIONS=-lineinfo");
  REQUIRE(lineinfo.exit_code == 0);
  CHECK(!contains(lineinfo.out, "disk cache"));
  CHECK(entries_in(cache).size() == 2);
  CHECK(contains(tally(cache, compile_args(), "TALLY_NVRTC_OPTIONS=-lineinfo").out, "(disk cache"));
  CHECK(contains(tally(cache, compile_args()).out, "(disk cache"));
  CHECK(entries_in(cache).size() == 2);
}

TEST_CASE("kernel cache: TALLY_CACHE_DISABLE=1 writes nothing") {
  if (!cuda::nvrtc_available()) return;
  ScratchDir dir("tally_kc");
  fs::path cache = dir.path() / "cache";
  Run r = tally(cache, compile_args(), "TALLY_CACHE_DISABLE=1");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "COMPILE sm_90"));
  CHECK(!fs::exists(cache));
}

}  // namespace
}  // namespace tally
