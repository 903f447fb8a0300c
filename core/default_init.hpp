// A std::vector whose resize leaves new elements default-initialised (for integers: unwritten,
// not zeroed), so that the pass that writes each element first also faults its pages in, on
// its own threads (core/xpcs/pixel_major.cpp: a 4 MB table zeroed on one thread cost 2 ms of
// page faults on the 2-core development box).
#pragma once
#include <memory>
#include <utility>
#include <vector>

namespace clscope {

template <class T> class DefaultInitAllocator : public std::allocator<T> {
  public:
    using std::allocator<T>::allocator;

    template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U; }
    template <class U, class... A> void construct(U* p, A&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(args)...);
    }
};

template <class T> using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

} // namespace clscope
