// A run's result (or input) as the type its algorithm makes, reached without dynamic_cast: the
// object's exact type is checked against the one asked for (every algorithm's result and input
// is a class of its own, never derived from again), then static_cast. A result of another type
// is an error that says so, not a null pointer to test for.
#pragma once
#include "core/errors.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>

namespace clscope::ui {

template <class T, class Base> const T& typedAs(const Base& object) {
    static_assert(std::is_base_of_v<Base, T>, "typedAs reaches a type derived from the base");
    if constexpr (std::is_same_v<T, Base>) return object; // any of them will do
    if (typeid(object) != typeid(T))
        throw UsageError(std::string("not the type this panel or view shows (") +
                         typeid(object).name() + " where " + typeid(T).name() + " was expected)");
    return static_cast<const T&>(object);
}

// The same for a shared pointer; null stays null.
template <class T, class Base>
std::shared_ptr<const T> typedAs(const std::shared_ptr<const Base>& object) {
    if (!object) return nullptr;
    typedAs<T>(*object);
    return std::static_pointer_cast<const T>(object);
}

} // namespace clscope::ui
