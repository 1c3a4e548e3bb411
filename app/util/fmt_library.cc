// fmt's compiled part, built into kkadm (CMakeLists.txt, KKADM_STATIC_DEPS). Debian ships fmt's
// implementation as a header, fmt/format-inl.h, and the library itself only as a shared object,
// which would bring the shared C++ runtime back. Building the implementation once here, rather
// than defining FMT_HEADER_ONLY everywhere, keeps one copy of it: GCC clones fmt's inline
// functions into every translation unit otherwise (700 KiB of duplicated code measured).
// Besides the header, fmt's library holds the explicit instantiations its headers declare extern
// (format.h) and those it uses itself.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view,
                                 basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

}  // namespace detail
FMT_END_NAMESPACE
