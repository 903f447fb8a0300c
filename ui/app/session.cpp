#include "ui/app/session.hpp"

#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "ui/app/main_window.hpp"
#include "ui/data/data_browser.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/mask_panel.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/params/param_form.hpp"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace clscope::ui {

namespace {

using nlohmann::json;

constexpr int sessionVersion = 1;
constexpr int layoutMarker = 23; // QMainWindow::saveState's version of a session's layout

std::string base64(const QByteArray& bytes) {
    return bytes.toBase64().toStdString();
}

QByteArray unbase64(const json& j) {
    return QByteArray::fromBase64(QByteArray::fromStdString(j.get<std::string>()));
}

std::optional<DataRole> roleOf(const std::string& shortName) {
    for (DataRole role : allDataRoles())
        if (roleShortName(role) == shortName) return role;
    return std::nullopt;
}

// The session's data file where it is now: as saved (absolute), relative to the session's folder
// (also an older session's relative path), or the file of that name beside the session (a folder
// moved with it). Empty when none exists.
QString locateFile(const json& session, const QString& sessionPath) {
    const QString saved = QString::fromStdString(session.value("file", std::string()));
    const QDir beside = QFileInfo(sessionPath).absoluteDir();
    QStringList candidates{saved};
    if (!sessionPath.isEmpty())
        candidates << beside.filePath(QString::fromStdString(session.value("file_relative", "")))
                   << beside.filePath(saved) << beside.filePath(QFileInfo(saved).fileName());
    for (const QString& c : candidates)
        if (QFileInfo(c).isFile()) return c;
    return {};
}

// Each panel's variant chooser (ui/kit/variant_combo.hpp), by algorithm.
std::map<std::string, QComboBox*> variantCombos(const MainWindow& window) {
    std::map<std::string, QComboBox*> combos;
    for (QComboBox* combo : window.findChildren<QComboBox*>())
        if (combo->objectName().startsWith("variant:"))
            combos[combo->objectName().mid(8).toStdString()] = combo;
    return combos;
}

} // namespace

SessionManager::SessionManager(MainWindow& window) : QObject(&window), window_(window) {
    ask_ = [this](const QString& text) {
        return QMessageBox::question(&window_, "Unsaved mask edits", text,
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                     QMessageBox::Save);
    };
}

json SessionManager::capture(const QString& sessionPath) const {
    Workbench& wb = window_.workbench();
    json out = {{"clscope_session", sessionVersion}};
    const QString file = QString::fromStdString(wb.dataset().fileName());
    out["file"] = file.isEmpty() ? "" : QFileInfo(file).absoluteFilePath().toStdString();
    if (!file.isEmpty() && !sessionPath.isEmpty())
        out["file_relative"] = QFileInfo(sessionPath)
                                   .absoluteDir()
                                   .relativeFilePath(QFileInfo(file).absoluteFilePath())
                                   .toStdString();
    if (const auto width = wb.dataset().eventFrameTime()) out["event_frame_time"] = *width;
    json roles = json::object();
    for (const auto& [role, path] : wb.dataset().assignments())
        roles[roleShortName(role)] = path;
    out["roles"] = roles;
    if (wb.dataset().isOpen()) out["mask"] = maskToJson(window_.maskPanel()->editor());
    json parameters = json::object();
    for (const ParamForm* form : window_.findChildren<ParamForm*>()) {
        json values = json::object();
        for (const ParamSpec& spec : form->paramSet().specs())
            values[spec.name] = form->value(spec.name);
        parameters[form->group()] = values;
    }
    out["parameters"] = parameters;
    if (auto* devices = window_.findChild<DevicePicker*>()) {
        out["device"] = devices->presenter().currentKey();
        json variants = devices->presenter().rememberedVariants();
        for (const auto& [algorithm, combo] : variantCombos(window_))
            if (!comboVariant(*combo).empty()) variants[algorithm] = comboVariant(*combo);
        out["variants"] = variants;
    }
    out["layout"] = base64(window_.saveState(layoutMarker));
    out["geometry"] = base64(window_.saveGeometry());
    return out;
}

void SessionManager::apply(const json& session, const QString& sessionPath) {
    if (!session.is_object() || session.value("clscope_session", 0) != sessionVersion)
        throw InputError("not a clscope session (expected \"clscope_session\": " +
                         std::to_string(sessionVersion) + ")");
    try {
        if (session.contains("geometry")) window_.restoreGeometry(unbase64(session["geometry"]));
        if (session.contains("layout"))
            window_.restoreState(unbase64(session["layout"]), layoutMarker);
        auto* devices = window_.findChild<DevicePicker*>();
        if (devices && session.contains("device"))
            devices->selectDevice(devices->presenter().selectByKey(session["device"]));
        applyVariants(session.value("variants", json::object()));
        // The file first: opening it resets what derives from the previous one (frame time,
        // the fit's τ range), then the session's parameters.
        applyData(session, sessionPath);
        applyParameters(session.value("parameters", json::object()));
    } catch (const json::exception& e) {
        throw InputError(std::string("session: unexpected content: ") + e.what());
    }
}

// Remembered for the device chosen, and chosen in the panels (after the device: its change
// refills them); one a panel does not offer here is said in the Log.
void SessionManager::applyVariants(const json& variants) {
    auto* devices = window_.findChild<DevicePicker*>();
    const auto combos = variantCombos(window_);
    for (const auto& [algorithm, value] : variants.items()) {
        const std::string id = value.get<std::string>();
        if (devices) devices->selectVariant(algorithm, id);
        const auto combo = combos.find(algorithm);
        if (combo == combos.end() || comboVariant(*combo->second) == id) continue;
        if (!chooseComboVariant(*combo->second, id))
            window_.workbench().log(
                LogLevel::Warning,
                QString("session: variant %1 of %2 cannot be chosen here")
                    .arg(QString::fromStdString(id), QString::fromStdString(algorithm)));
    }
}

// The file, its roles, then the mask drawn over its image.
void SessionManager::applyData(const json& session, const QString& sessionPath) {
    const std::string saved = session.value("file", std::string());
    if (saved.empty()) return;
    const QString file = locateFile(session, sessionPath);
    if (file.isEmpty())
        throw InputError("session: cannot find " + saved +
                         (sessionPath.isEmpty() ? std::string()
                                                : ", nor a file of its name beside the session"));
    // An event list's frame width as saved, not asked again.
    if (const auto width = session.find("event_frame_time");
        width != session.end() && width->is_number() && width->get<double>() > 0)
        window_.workbench().setNextEventFrameTime(width->get<double>());
    if (!window_.openFile(file)) throw InputError("session: cannot open " + file.toStdString());
    window_.workbench().setNextEventFrameTime(std::nullopt);
    auto* browser = window_.findChild<DataBrowser*>();
    const json roles = session.value("roles", json::object());
    for (const auto& [name, path] : roles.items()) {
        const auto role = roleOf(name);
        const std::string p = path.get<std::string>();
        if (!role || !browser) throw InputError("session: unknown dataset role '" + name + "'");
        if (window_.workbench().dataset().path(*role) != p)
            browser->assignRole(*role, QString::fromStdString(p));
    }
    if (session.contains("mask")) maskFromJson(window_.maskPanel()->editor(), session["mask"]);
}

// Each form's values; one the form refuses is said in the Log, the others are kept.
void SessionManager::applyParameters(const json& parameters) {
    for (ParamForm* form : window_.findChildren<ParamForm*>()) {
        if (!parameters.contains(form->group())) continue;
        for (const auto& [name, value] : parameters[form->group()].items()) {
            try {
                if (form->value(name) != value) form->setValue(name, value);
            } catch (const std::exception& e) {
                window_.workbench().log(LogLevel::Warning,
                                        QString("session: %1 %2 not restored: %3")
                                            .arg(QString::fromStdString(form->group()),
                                                 QString::fromStdString(name), e.what()));
            }
        }
    }
}

void SessionManager::save(const QString& path) {
    const std::string text = capture(path).dump(2);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()))
        throw InputError("cannot write the session " + path.toStdString() + ": " +
                         file.errorString().toStdString());
    window_.maskPanel()->editor().undoStack()->setClean();
    remember(path);
}

void SessionManager::open(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw InputError("cannot read the session " + path.toStdString() + ": " +
                         file.errorString().toStdString());
    const json session = parseJson(file.readAll().toStdString(), "session " + path.toStdString());
    if (session.is_discarded()) throw InputError("session " + path.toStdString() + " is not JSON");
    apply(session, path);
    window_.maskPanel()->editor().undoStack()->setClean();
    remember(path);
}

void SessionManager::remember(const QString& path) {
    QSettings().setValue("session/last", QFileInfo(path).absoluteFilePath());
    window_.workbench().log(LogLevel::Info, "session " + path);
}

bool SessionManager::saveDialog() {
    const QString path = QFileDialog::getSaveFileName(&window_, "Save session", "session.json",
                                                      "clscope session (*.json)");
    if (path.isEmpty()) return false;
    try {
        save(path);
        return true;
    } catch (const std::exception& e) {
        window_.workbench().log(LogLevel::Error, e.what());
        QMessageBox::warning(&window_, "Session not saved", e.what());
        return false;
    }
}

void SessionManager::openDialog() {
    const QString path = QFileDialog::getOpenFileName(&window_, "Open session", {},
                                                      "clscope session (*.json);;All files (*)");
    if (path.isEmpty()) return;
    try {
        open(path);
    } catch (const std::exception& e) {
        window_.workbench().log(LogLevel::Error, e.what());
        QMessageBox::warning(&window_, "Session not opened", e.what());
    }
}

bool SessionManager::restoreOnStart() const {
    return QSettings().value("session/restoreOnStart", false).toBool();
}

void SessionManager::setRestoreOnStart(bool on) {
    QSettings().setValue("session/restoreOnStart", on);
}

void SessionManager::restoreLastIfWanted() {
    const QString last = QSettings().value("session/last").toString();
    if (!restoreOnStart() || last.isEmpty() || !QFileInfo::exists(last)) return;
    try {
        open(last);
    } catch (const std::exception& e) {
        window_.workbench().log(LogLevel::Error,
                                QString("last session not restored: %1").arg(e.what()));
    }
}

bool SessionManager::confirmClose() {
    QUndoStack* edits = window_.maskPanel()->editor().undoStack();
    if (edits->isClean()) return true;
    const auto answer =
        ask_("The mask has edits that are not saved. Save a session with them before quitting?");
    if (answer == QMessageBox::Discard) return true;
    if (answer == QMessageBox::Save) return saveDialog();
    return false;
}

} // namespace clscope::ui
