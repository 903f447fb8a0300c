// The generic parameter form (ui/params): an editor for every declared parameter of every
// registered algorithm, with the spec's range, choices and help; edits give the JSON that
// `--params` takes (the CLI's own parsing of the same text); refused edits keep the value;
// values persist per algorithm and parameter across forms (restarts).
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/spots/algorithm.hpp"
#include "ui/app/main_window.hpp"
#include "ui/base/scrollable.hpp"
#include "ui/params/param_form.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSpontaneKeyEvent>
#include <QtTest>

using namespace clscope;
using namespace clscope::ui;

namespace {

void typeInto(QWidget* widget, const QString& text) {
    auto* line = qobject_cast<QLineEdit*>(widget);
    QVERIFY(line);
    line->clear();
    QTest::keyClicks(line, text);
    QTest::keyClick(line, Qt::Key_Return);
}

// A wheel notch over `widget` at its centre, delivered as the window system would (to the widget
// under the pointer, propagated to its parents while ignored).
void wheelOver(QWidget* widget, int delta) {
    const QPoint centre = widget->rect().center();
    QWidget* target = widget->childAt(centre) ? widget->childAt(centre) : widget;
    const QPointF local = target->mapFrom(widget, centre);
    QWheelEvent wheel(local, target->mapToGlobal(local), {}, {0, delta}, Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&wheel);
    qApp->notify(target, &wheel);
}

void checkEditor(const ParamSpec& spec, QWidget* w) {
    using T = ParamSpec::Type;
    QVERIFY2(w, spec.name.c_str());
    QVERIFY(w->toolTip().contains(QString::fromStdString(spec.help)));
    if (!spec.flag.empty()) QVERIFY(w->toolTip().contains(QString::fromStdString(spec.flag)));
    if (spec.type == T::Bool) QVERIFY(qobject_cast<QCheckBox*>(w));
    if (spec.type == T::Choice) {
        auto* combo = qobject_cast<QComboBox*>(w);
        QVERIFY(combo);
        QCOMPARE(std::size_t(combo->count()), spec.choices.size());
    }
    if (spec.type == T::Double && !spec.defaultValue.is_null()) {
        auto* box = qobject_cast<QDoubleSpinBox*>(w);
        QVERIFY2(box, spec.name.c_str());
        if (spec.min) QCOMPARE(box->minimum(), *spec.min);
        if (spec.max) QCOMPARE(box->maximum(), *spec.max);
    }
    if (spec.type == T::Int && !spec.defaultValue.is_null()) {
        auto* box = qobject_cast<QSpinBox*>(w);
        QVERIFY2(box, spec.name.c_str());
        if (spec.min) QCOMPARE(box->minimum(), int(*spec.min));
    }
}

} // namespace

class TestUiParams : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    const Algorithm& spots_ = AlgorithmRegistry::instance().find("spots");

    QString saved(const std::string& name) {
        return QSettings().value(QString::fromStdString("parameters/spots/" + name)).toString();
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::useTemporarySettings(dir_);
    }
    void init() { QSettings().clear(); }

    void everyParameterOfEveryAlgorithmHasAnEditor() {
        for (const auto& algorithm : AlgorithmRegistry::instance().all()) {
            ParamForm form(*algorithm, "p");
            QCOMPARE(form.paramSet().values(), algorithm->defaultParams().values());
            for (const ParamSpec& spec : algorithm->parameterSpecs())
                checkEditor(spec, form.field(spec.name));
        }
        ParamForm some(spots_, "p", {"phil", "debug"});
        QVERIFY(!some.field("phil"));
        QVERIFY(some.field("gain"));
    }

    // Each edit gives what the command line gives for the same text.
    void editsGiveTheCommandLineJson() {
        ParamForm form(spots_, "p");
        QSignalSpy changed(&form, &ParamForm::changed);
        qobject_cast<QDoubleSpinBox*>(form.field("sigma_strong"))->setValue(1.5);
        typeInto(form.field("kernel_size"), "5,4");
        typeInto(form.field("global_threshold"), "auto");
        qobject_cast<QComboBox*>(form.field("threshold_algorithm"))
            ->setCurrentText("dispersion_extended");
        qobject_cast<QCheckBox*>(form.field("three_d"))->setChecked(true);
        QCOMPARE(changed.count(), 5);
        ParamSet cli = spots_.defaultParams();
        for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
                 {"sigma_strong", "1.5"},
                 {"kernel_size", "5,4"},
                 {"global_threshold", "auto"},
                 {"threshold_algorithm", "dispersion_extended"},
                 {"three_d", "true"}})
            cli.set(name, parseParamText(cli.spec(name), text));
        QCOMPARE(form.paramSet().values(), cli.values());
        QCOMPARE(saved("kernel_size"), QString("[5,4]"));
    }

    // A refused edit (by the spec, or by the panel's check) is marked and not taken.
    void refusedEditsKeepTheValue() {
        ParamForm form(spots_, "p", {},
                       [](const ParamSet& p) { spots::Algorithm().parameters(p); });
        QSignalSpy changed(&form, &ParamForm::changed);
        typeInto(form.field("kernel_size"), "5,x");
        QVERIFY(form.error("kernel_size").contains("--kernel-size"));
        QCOMPARE(form.value("kernel_size"), nlohmann::json::array({3, 3}));
        QVERIFY(!form.field("kernel_size")->styleSheet().isEmpty());
        typeInto(form.field("global_threshold"), "lots");
        QVERIFY(!form.error("global_threshold").isEmpty());
        QCOMPARE(form.value("global_threshold"), nlohmann::json(0));
        QCOMPARE(changed.count(), 0);
        QVERIFY_THROWS_EXCEPTION(UsageError, form.setValue("gain", -1.0));
        typeInto(form.field("kernel_size"), "2,2");
        QVERIFY(form.error("kernel_size").isEmpty());
        QVERIFY(form.field("kernel_size")->styleSheet().isEmpty());
        QCOMPARE(form.value("kernel_size"), nlohmann::json::array({2, 2}));
    }

    // A new form (the next start) shows the saved values; Defaults forgets them; a saved value
    // the spec no longer accepts is dropped.
    // Issue 52 "Channels 16 -> 10": the wheel over a field without focus scrolls the panel and
    // leaves the value; once the field has focus (a click, Tab) the wheel edits it.
    void wheelScrollsThePanelUnlessTheFieldHasFocus() {
        MainWindow window; // installs the application's WheelGuard
        auto* form = new ParamForm(spots_, "p");
        std::unique_ptr<QWidget> panel(scrollable(form));
        panel->resize(320, 160);
        panel->show();
        QVERIFY(QTest::qWaitForWindowActive(panel.get()));
        auto* bar = qobject_cast<QScrollArea*>(panel.get())->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        auto* size = qobject_cast<QSpinBox*>(form->field("min_spot_size"));
        auto* combo = form->findChild<QComboBox*>();
        QVERIFY(size && combo);
        QCOMPARE(size->focusPolicy(), Qt::StrongFocus);
        panel->setFocus(); // a window gives its first field the focus: not here
        QTRY_VERIFY(panel->hasFocus());
        const int value = size->value();
        const int comboIndex = combo->currentIndex();
        QVERIFY(QTest::qWaitFor([&] {
            if (size->visibleRegion().isEmpty()) bar->setValue(size->y() - 10);
            return !size->visibleRegion().isEmpty();
        }));
        const int before = bar->value();
        wheelOver(size, before < bar->maximum() ? -120 : 120);
        QCOMPARE(size->value(), value);
        QVERIFY2(bar->value() != before, qPrintable(QString::number(before)));
        bar->setValue(combo->y() - 10);
        wheelOver(combo, -120);
        QCOMPARE(combo->currentIndex(), comboIndex);
        size->setFocus();
        QTRY_VERIFY(size->hasFocus());
        bar->setValue(size->y() - 10);
        wheelOver(size, 120);
        QCOMPARE(size->value(), value + 1);
        form->resetToDefaults();
    }

    void valuesPersistPerAlgorithm() {
        {
            ParamForm form(spots_, "p");
            qobject_cast<QDoubleSpinBox*>(form.field("sigma_strong"))->setValue(4.5);
            form.setValue("min_spot_size", 7);
        }
        QSettings().setValue("parameters/spots/gain", "-1");
        ParamForm again(spots_, "p");
        QCOMPARE(again.value("sigma_strong"), nlohmann::json(4.5));
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(again.field("sigma_strong"))->value(), 4.5);
        QCOMPARE(qobject_cast<QSpinBox*>(again.field("min_spot_size"))->value(), 7);
        QCOMPARE(again.value("gain"), nlohmann::json(1.0));
        QVERIFY(!QSettings().contains("parameters/spots/gain"));
        for (const auto& algorithm : AlgorithmRegistry::instance().all())
            if (algorithm->id() != "spots")
                QCOMPARE(ParamForm(*algorithm, "p").paramSet().values(),
                         algorithm->defaultParams().values());
        again.resetToDefaults();
        QCOMPARE(again.paramSet().values(), spots_.defaultParams().values());
        QCOMPARE(ParamForm(spots_, "p").paramSet().values(), spots_.defaultParams().values());
    }
};

QTEST_MAIN(TestUiParams)
#include "tst_ui_params.moc"
