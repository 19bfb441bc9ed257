// fmt's compiled part (what libfmt.so holds): the functions format.h declares and
// format-inl.h defines, and the locale templates format.h declares `extern` for every user.
#include <fmt/format-inl.h>

namespace fmt::detail {

template locale_ref::locale_ref(std::locale const&);
template std::locale locale_ref::get<std::locale>() const;
template thousands_sep_result<char> thousands_sep_impl<char>(locale_ref);
template thousands_sep_result<wchar_t> thousands_sep_impl<wchar_t>(locale_ref);
template char decimal_point_impl<char>(locale_ref);
template wchar_t decimal_point_impl<wchar_t>(locale_ref);

} // namespace fmt::detail
