// workload.cc - bench/alloc's C++ workload: std::map<std::string,
// std::string>, std::vector<std::string>, std::unordered_map and
// std::make_shared, so the allocations come through operator new from
// inlined library templates and from libstdc++ itself (std::string).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

static volatile size_t sink;

__attribute__((noinline)) void fill_map(std::map<std::string, std::string> &m, int n, int round)
{
	for (int i = 0; i < n; i++)
		m["key-number-" + std::to_string(i * 7 + round)] = std::string(24 + i % 40, 'v');
}

__attribute__((noinline)) std::vector<std::string> split_words(int n)
{
	std::vector<std::string> words;

	for (int i = 0; i < n; i++)
		words.push_back("a-longer-word-that-is-not-short-" + std::to_string(i));
	return words;
}

__attribute__((noinline)) size_t index_numbers(int n)
{
	std::unordered_map<int, std::vector<int>> idx;

	for (int i = 0; i < n; i++)
		idx[i % 5000].push_back(i);
	return idx.size();
}

struct widget {
	double x[6];
	std::string name;
};

__attribute__((noinline)) size_t make_widgets(int n)
{
	std::vector<std::shared_ptr<widget>> v;

	for (int i = 0; i < n; i++)
		v.push_back(std::make_shared<widget>());
	return v.size();
}

__attribute__((noinline)) std::string join(const std::vector<std::string> &w)
{
	std::string out;

	for (const auto &s : w)
		out += s + ",";
	return out;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;

	for (int r = 0; r < rounds; r++) {
		std::map<std::string, std::string> m;

		fill_map(m, 150000, r);
		auto w = split_words(200000);
		sink = join(w).size();
		sink = index_numbers(600000);
		sink = make_widgets(200000);
		sink = m.size();
	}
	return 0;
}
