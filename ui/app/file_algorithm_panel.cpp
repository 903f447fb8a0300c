// Algorithms without a panel of their own still plug into the workbench: a small panel that
// says what the algorithm reads with the generic parameter form, and the Compare dock's input
// read from the open file through the algorithm's own Algorithm::read (default dataset paths,
// the form's parameters).
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"

#include <QLabel>
#include <QPointer>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QString rolesText(const Algorithm& algorithm) {
    QString text;
    for (const InputRole& role : algorithm.inputRoles())
        text += QString("<li>%1: <tt>%2</tt>%3</li>")
                    .arg(QString::fromStdString(role.id), QString::fromStdString(role.defaultPath),
                         role.optional ? " (optional)" : "");
    return text;
}

} // namespace

void startFileAlgorithmDemo(Workbench& wb, const std::string& id); // file_algorithm_demo.cpp

AlgorithmPanelSpec fileAlgorithmPanelSpec(const std::string& id) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(id);
    AlgorithmPanelSpec spec;
    spec.algorithm = id;
    spec.title = QString::fromStdString(id);
    auto form = std::make_shared<QPointer<ParamForm>>();
    spec.createPanel = [&algorithm, form](Workbench& wb, QWidget* parent) -> QWidget* {
        auto* panel = new QWidget(parent);
        auto* layout = new QVBoxLayout(panel);
        auto* label = new QLabel(
            QString(
                "<b>%1</b><p>No panel of its own yet: open a file and run or compare its variants "
                "in the "
                "<b>Compare</b> dock (Ctrl+R there). It reads, from the open file:</p><ul>%2</ul>"
                "<p>The command line has every option: <tt>clscope-cli %3 --help</tt>.</p>")
                .arg(QString::fromStdString(algorithm.label()), rolesText(algorithm),
                     QString::fromStdString(algorithm.command())),
            panel);
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        layout->addWidget(label);
        *form = new ParamForm(algorithm, "Parameters", {}, {}, panel);
        layout->addWidget(*form);
        QObject::connect(*form, &ParamForm::changed, panel, [&wb, &algorithm] {
            emit wb.parametersChanged(QString::fromStdString(algorithm.id()));
        });
        layout->addStretch(1);
        return panel;
    };
    if (!algorithm.syntheticKinds().empty())
        spec.startDemo = [id](Workbench& wb) { startFileAlgorithmDemo(wb, id); };
    spec.comparisonInput = [&algorithm, form](Workbench& wb) {
        if (!wb.dataset().file()) throw InputError(algorithm.id() + ": open an HDF5 file first");
        const ParamSet params = *form ? (*form)->paramSet() : algorithm.defaultParams();
        RunCommand command;
        command.algorithm = algorithm.id(), command.params = params;
        command.sources.file = wb.dataset().file()->fileName();
        return ComparisonInput{algorithm.read(command.sources, params), params, command};
    };
    return spec;
}

} // namespace clscope::ui
